/** One row of the report's target table (targets.ts, tenantTargets.ts). */
export interface TargetCheck {
  area: string;
  target: string;
  measured: string;
  /**
   * The measured value relative to the target's threshold, in the target's direction; null when
   * the run did not measure it (a shape or an engine left out).
   */
  met: boolean | null;
}
