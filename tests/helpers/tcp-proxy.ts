/**
 * A TCP proxy in the test process between feedgate and a server (PostgreSQL, Redis) that a test can cut and
 * restore: the network failing under a running instance, deterministically, without touching the real server.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import { once } from "node:events";

/**
 * How a cut behaves for connections opened during it: `reset` accepts and closes them at once (the server went
 * away), `blackhole` accepts and never answers (a dead host or a dropped route: only timeouts end the wait).
 */
export type CutMode = "reset" | "blackhole";

export class TcpProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private cutMode: CutMode | null = null;
  /** Connections accepted since the proxy started, cut or not. */
  connections = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => this.accept(client));
  }

  /** Listens on a free loopback port and returns it. */
  async start(): Promise<number> {
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    return (this.server.address() as { port: number }).port;
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => undefined);
  }

  private accept(client: Socket): void {
    this.connections += 1;
    this.track(client);
    if (this.cutMode === "reset") return void client.destroy();
    if (this.cutMode === "blackhole") return; // held open and never answered, until restore() destroys it
    const upstream = connect(this.target.port, this.target.host);
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  }

  /**
   * Cuts the network: in `reset` mode every open connection is destroyed; in `blackhole` mode open
   * connections stop carrying bytes in either direction but stay open, as through a dead route.
   */
  cut(mode: CutMode = "reset"): void {
    this.cutMode = mode;
    for (const socket of this.sockets) {
      if (mode === "reset") socket.destroy();
      else {
        socket.unpipe();
        socket.pause();
      }
    }
  }

  /** Ends the cut: whatever it left half-open is closed, and new connections reach the server again. */
  restore(): void {
    if (this.cutMode === "blackhole") for (const socket of this.sockets) socket.destroy();
    this.cutMode = null;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server.close();
    await once(this.server, "close");
  }
}
