import { defineConfig } from "vite";

// Built into dist/ and served by the query API at /dashboard/ (services/query-api/src/http/dashboardStatic.ts).
export default defineConfig({
  base: "/dashboard/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // The CSP forbids inline scripts; the preload polyfill is not needed by the browsers we target.
    modulePreload: { polyfill: false },
    // Small assets stay separate files rather than data: URLs, so nothing needs a looser CSP.
    assetsInlineLimit: 0,
    reportCompressedSize: true,
  },
  server: {
    // `pnpm dev`: the page from Vite, the API from a running `npm start` / `npm run api`.
    proxy: { "/api": process.env.VU_API_URL ?? "http://localhost:8080" },
  },
});
