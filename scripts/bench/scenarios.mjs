// Scenarios that need domain mechanisms (commits, charging); each returns a results row.
export const scenarios = [];
