// The floor: a raw node:http server answering a small JSON body, in its own process.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const body = JSON.stringify({ data: { currency: 'USD', timezone: 'UTC', locale: 'en' } });
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
