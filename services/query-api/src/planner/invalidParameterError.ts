/**
 * A query parameter the planner or the query layer cannot accept: bad syntax, an unknown zone, a
 * range too long. Domain code throws it; only the HTTP layer turns it into a 400 problem (http/).
 */
export class InvalidParameterError extends Error {
  readonly parameter: string;

  constructor(parameter: string, message: string) {
    super(message);
    this.name = "InvalidParameterError";
    this.parameter = parameter;
  }
}
