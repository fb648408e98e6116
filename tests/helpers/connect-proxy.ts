/**
 * An HTTP proxy that tunnels every `CONNECT` to one local port, whatever host it names: how a client that insists on
 * a host name without a port (gh's `auth login --hostname`) reaches a test's server on its own port, with no DNS
 * entry and no privileged port. Clients find it through `HTTPS_PROXY`, as they would a company's proxy.
 */
import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface ConnectProxy {
  /** `http://127.0.0.1:PORT`, for HTTPS_PROXY. */
  url: string;
  /** The `host:port` of each CONNECT, in order. */
  tunnels: string[];
  close(): Promise<void>;
}

export async function connectProxy(targetPort: number): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_request, response) => response.writeHead(405).end());
  server.on("connect", (request, client: Socket, head: Buffer) => {
    tunnels.push(request.url ?? "");
    const upstream = connect(targetPort, "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    }
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
