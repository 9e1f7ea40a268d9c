import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-*/**",
      ".data/**",
      "lib/generated/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
      "bench/.work/**",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // Layering (DESIGN §2, CONVENTIONS): only lib/db.ts and lib/**/queries.ts|service.ts touch Prisma;
  // components never reach the database; lib never imports the UI.
  {
    files: ["app/**", "components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/db", "@/lib/generated/*", "**/generated/prisma*"],
              message: "Go through a lib/<domain> service or query.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/**"],
    ignores: [
      "lib/db.ts",
      "lib/**/queries.ts",
      "lib/**/service.ts",
      "lib/**/*.test.ts",
      "lib/testing/**",
      "lib/jobs/**",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/app/*", "@/components/*"], message: "lib/ never imports app/ or components/." },
            {
              group: ["@/lib/generated/prisma/client", "**/generated/prisma/client"],
              message: "Only lib/db.ts, queries.ts and service.ts use the Prisma client.",
            },
          ],
        },
      ],
    },
  },
];

export default config;
