/** A background job: its queue name, handler, and optional cron schedule (UTC). */
export type JobDefinition<T extends object = object> = {
  name: string;
  handler: (data: T) => Promise<void>;
  /** cron expression, e.g. "* * * * *" for every minute; the job then runs with `scheduleData`. */
  cron?: string;
  scheduleData?: T;
  /** parallel jobs of this queue per instance */
  concurrency?: number;
  retryLimit?: number;
};

export const defineJob = <T extends object>(job: JobDefinition<T>) => job as unknown as JobDefinition;
