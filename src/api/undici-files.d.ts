// Types of the undici files src/api/undici-lib.ts imports one by one (undici types only its index).
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export = Agent;
}
declare module 'undici/lib/core/errors.js' {
  import { errors } from 'undici';
  export = errors;
}
declare module 'undici/lib/core/connect.js' {
  import { buildConnector } from 'undici';
  export = buildConnector;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** Dispatcher.prototype.request, called on a dispatcher. */
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export = request;
}
