// The error a widget sees when the engine refuses a request: the engine's code, message and field, as a JS Error.
export class EngineError extends Error {
  constructor({ code, message, field = null }) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    this.field = field;
  }
}
