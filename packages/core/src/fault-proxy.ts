import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy that a test puts between a service and its database (or Redis)
 * to inject faults: `cut()` resets every open connection and refuses new ones
 * (what a database restart or a network partition looks like to the client),
 * `restore()` lets connections through again.
 */
export interface FaultProxy {
  /** The port the proxy listens on (127.0.0.1). */
  readonly port: number;
  /** Connections accepted so far (each one opened to the target). */
  readonly accepted: number;
  /** Resets every open connection, and every new one until restore(). */
  cut(): void;
  /**
   * Stops passing bytes either way without closing anything, and holds new connections unanswered: a network
   * partition or a hung server, where only timeouts tell.
   */
  stall(): void;
  /** Passes new connections through again (connections open during a stall are closed). */
  restore(): void;
  /** `url` with its host and port replaced by the proxy's. */
  rewrite(url: string): string;
  close(): Promise<void>;
}

/** Starts a proxy on a free port of 127.0.0.1 forwarding to `target`. */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const open = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let down = false;
  let stalled = false;
  let accepted = 0;
  const server: Server = createServer((client) => {
    if (down) {
      client.resetAndDestroy();
      return;
    }
    if (stalled) {
      // Accepted and never answered.
      open.add(client);
      client.on('error', () => client.destroy());
      return;
    }
    accepted += 1;
    const upstream = connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.on('close', () => pairs.delete(pair));
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    get accepted() {
      return accepted;
    },
    cut() {
      down = true;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    stall() {
      stalled = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    restore() {
      down = false;
      if (stalled) {
        stalled = false;
        for (const socket of open) socket.destroy();
        open.clear();
        pairs.clear();
      }
    },
    rewrite(url: string) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    async close() {
      for (const socket of open) socket.destroy();
      open.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
