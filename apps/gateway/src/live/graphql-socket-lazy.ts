// The subscriptions' WebSocket handler (graphql-socket.ts), loaded with the first socket: it
// imports graphql-ws and graphql-js, which a gateway otherwise loads only with its first GraphQL
// request (@cms/graphql server-cache.ts), if ever — about 10 MB of every idle gateway.
import type { WebsocketHandler } from '@fastify/websocket';
import type { Platform } from '../platform.ts';

export function lazyGraphqlSocketHandler(platform: Platform): WebsocketHandler {
  let loading: Promise<WebsocketHandler> | undefined;
  let handler: WebsocketHandler | undefined;
  return function handleSocket(socket, request) {
    if (handler) return handler.call(this, socket, request);
    // Nothing is read from the socket until its handler listens: no message is missed.
    socket.pause();
    loading ??= import('./graphql-socket.ts').then(({ graphqlSocketHandler }) => (handler = graphqlSocketHandler(platform)));
    loading.then((loaded) => {
      loaded.call(this, socket, request);
      socket.resume();
    }, (err: unknown) => {
      loading = undefined;
      request.log.error({ err }, 'GraphQL subscriptions could not be loaded');
      socket.close(1011, 'Internal server error');
    });
  };
}
