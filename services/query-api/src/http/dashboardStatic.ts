import { existsSync } from "node:fs";
import { join } from "node:path";
import express, { type RequestHandler, Router } from "express";
import { ProblemError } from "./problemError";
import { compressFiles } from "./responseCompression";

/**
 * The dashboard's page may run only its own bundled script and style and talk only to this origin:
 * no inline script, no third-party origin, no framing. (uPlot sets sizes through the CSSOM, which
 * `style-src 'self'` allows.)
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Vite names every built asset by its content hash, so a cached copy can never be stale. */
const IMMUTABLE = "public, max-age=31536000, immutable";

const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader("Content-Security-Policy", DASHBOARD_CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "no-referrer");
  next();
};

/**
 * Serves the dashboard's built files (services/dashboard, `vite build`) at /dashboard/ and sends
 * `/` there. The API keeps working without a build: the page then answers a 503 saying how to
 * make one, checked per request so a build made after start-up is picked up.
 */
export function createDashboardRouter(distDir: string): Router {
  const router = Router();
  router.get("/", (_req, res) => {
    res.redirect(302, "/dashboard/");
  });
  const files = express.static(distDir, {
    index: "index.html",
    redirect: true,
    setHeaders(res, path) {
      res.setHeader("Cache-Control", path.includes("/assets/") ? IMMUTABLE : "no-cache");
    },
  });
  router.use("/dashboard", securityHeaders, compressFiles(), (req, res, next) => {
    if (!existsSync(join(distDir, "index.html"))) {
      next(
        new ProblemError(
          503,
          "The dashboard is not built: run `pnpm --filter @vu/dashboard build` (npm start builds it).",
        ),
      );
      return;
    }
    files(req, res, next);
  });
  return router;
}
