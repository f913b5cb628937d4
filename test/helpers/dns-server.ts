// A tiny authoritative DNS server on loopback UDP for the TXT records a test publishes (single
// sign-on's domain proofs): the gateway reads them through SSO_DNS_SERVERS=`address`. Unknown
// names are NXDOMAIN; only TXT queries get answers.
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

export interface TestDns {
  /** `127.0.0.1:port`, for SSO_DNS_SERVERS. */
  address: string;
  /** TXT values by lower-case name. */
  txt: Map<string, string[]>;
  close(): Promise<void>;
}

export async function startTestDns(): Promise<TestDns> {
  const txt = new Map<string, string[]>();
  const socket = createSocket('udp4');
  socket.on('message', (query, from) => {
    let offset = 12;
    const labels: string[] = [];
    while (query[offset]! !== 0) {
      const length = query[offset]!;
      labels.push(query.subarray(offset + 1, offset + 1 + length).toString('latin1'));
      offset += length + 1;
    }
    offset += 1;
    const type = query.readUInt16BE(offset);
    offset += 4;
    const name = labels.join('.').toLowerCase();
    const values = type === 16 ? (txt.get(name) ?? []) : [];
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0);
    header.writeUInt16BE(0x8580 | (txt.has(name) ? 0 : 3), 2); // response, authoritative, RD+RA; NXDOMAIN when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(values.length, 6);
    const answers = values.map((value) => {
      const text = Buffer.from(value);
      const record = Buffer.alloc(12);
      record.writeUInt16BE(0xc00c, 0); // the question's name
      record.writeUInt16BE(16, 2); // TXT
      record.writeUInt16BE(1, 4); // IN
      record.writeUInt32BE(60, 6);
      record.writeUInt16BE(text.length + 1, 10);
      return Buffer.concat([record, Buffer.from([text.length]), text]);
    });
    socket.send(Buffer.concat([header, query.subarray(12, offset), ...answers]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    txt,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
