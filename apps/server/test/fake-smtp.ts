import { once } from 'node:events';
import net from 'node:net';

/**
 * A minimal SMTP server on 127.0.0.1: it answers every command and keeps the mails' lines; while
 * `holding`, it accepts connections and says nothing until `release()`; while `failing`, it
 * greets every connection with 421 (service not available) and hangs up; `slow(ms)` delays each
 * mail's acceptance.
 */
export async function fakeSmtp() {
  const sockets = new Set<net.Socket>();
  const lines: string[] = [];
  let holding = false;
  let failing = false;
  let delayMs = 0;
  let rejecting = false;
  const held: net.Socket[] = [];
  const greet = (socket: net.Socket) => {
    socket.write('220 fake ESMTP\r\n');
    let buffer = '';
    let inData = false;
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            if (rejecting) socket.write('554 5.7.1 rejected by the test\r\n');
            else if (delayMs > 0) setTimeout(() => socket.writable && socket.write('250 queued\r\n'), delayMs);
            else socket.write('250 queued\r\n');
          } else lines.push(line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (failing) socket.end('421 fake service not available\r\n');
    else if (holding) held.push(socket);
    else greet(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    lines,
    sockets,
    hold: () => {
      holding = true;
    },
    /** Each mail is accepted `ms` after its data ends. */
    slow: (ms: number) => {
      delayMs = ms;
    },
    /** Each mail's data is read (its lines kept) and then refused with 554. */
    reject: (on = true) => {
      rejecting = on;
    },
    fail: (on = true) => {
      failing = on;
    },
    release: () => {
      holding = false;
      for (const socket of held.splice(0)) greet(socket);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

export type FakeSmtp = Awaited<ReturnType<typeof fakeSmtp>>;
