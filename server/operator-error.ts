/**
 * A problem the person running the server can fix (bad setting, unreachable database, locked data
 * directory, ...). `npm start` reports it as one line, without a stack trace.
 */
export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
