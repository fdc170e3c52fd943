/** One invalid query parameter, as reported in a 400's `errors` array (docs/contract.md §3). */
export interface ParameterProblem {
  parameter: string;
  message: string;
}

export interface ProblemOptions {
  /** Extra response headers, e.g. `Retry-After` or `WWW-Authenticate`. */
  headers?: Readonly<Record<string, string>>;
  errors?: readonly ParameterProblem[];
  cause?: unknown;
}

const TITLES: Readonly<Record<number, string>> = {
  400: "Invalid parameters",
  401: "Unauthorized",
  404: "Not found",
  429: "Too many requests",
  500: "Internal server error",
  503: "Service unavailable",
};

/**
 * The one error type of the HTTP layer: anything thrown as a ProblemError is rendered as RFC 9457
 * problem+json with its status; anything else is an unexpected 500.
 */
export class ProblemError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly errors: readonly ParameterProblem[] | undefined;

  constructor(status: number, detail: string, options: ProblemOptions = {}) {
    super(detail, { cause: options.cause });
    this.name = "ProblemError";
    this.status = status;
    this.title = TITLES[status] ?? "Error";
    this.detail = detail;
    this.headers = options.headers ?? {};
    this.errors = options.errors;
  }

  /** A 400 naming each offending parameter. */
  static badRequest(errors: readonly ParameterProblem[]): ProblemError {
    const detail = errors.map((e) => `${e.parameter}: ${e.message}`).join("; ");
    return new ProblemError(400, detail || "The request has invalid parameters.", { errors });
  }

  static invalidParameter(parameter: string, message: string): ProblemError {
    return ProblemError.badRequest([{ parameter, message }]);
  }

  /** The RFC 9457 `type` URI; a stable relative reference per status. */
  get type(): string {
    return `/problems/${this.status}`;
  }

  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = {
      type: this.type,
      title: this.title,
      status: this.status,
      detail: this.detail,
    };
    if (this.errors) body.errors = this.errors;
    return body;
  }
}
