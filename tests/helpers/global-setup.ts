import type { TestProject } from "vitest/node";
import { adminQuery, createTemplate, startTestServer } from "./test-db.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    adminUrl: string;
    templateDb: string;
  }
}

/** Migrates once per run into a template database; each test file clones it (setup-file.ts). */
export default async function setup(project: TestProject) {
  const server = await startTestServer("test-pg");
  const templateDb = `pn_template_${process.pid}`;
  await createTemplate(server.adminUrl, templateDb);
  project.provide("adminUrl", server.adminUrl);
  project.provide("templateDb", templateDb);
  return async () => {
    const { rows } = await adminQuery(
      server.adminUrl,
      `SELECT datname FROM pg_database WHERE datname LIKE 'pn_test_${process.pid}_%' OR datname = '${templateDb}'`,
    );
    for (const { datname } of rows)
      await adminQuery(server.adminUrl, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await server.stop();
  };
}
