// The answer to a request node's parser refuses: a status that names the fault, the security headers, then the socket
// is destroyed, so a client that never reads or never closes holds no descriptor.

/** A request line at least this long takes half of node's 16 KiB header budget: its overflow is the URL's fault. */
const LONG_REQUEST_LINE = 8 * 1024;

/** The status for a parser error (err.code from llhttp): the request line too long, the headers, the method, or 400. */
export function clientErrorStatus(err) {
  if (err?.code === 'HPE_HEADER_OVERFLOW') {
    const packet = String(err.rawPacket ?? '');
    const lineEnd = packet.search(/\r?\n/);
    return (lineEnd < 0 ? packet.length : lineEnd) >= LONG_REQUEST_LINE ? 414 : 431;
  }
  if (err?.code === 'HPE_INVALID_METHOD') return 501;
  if (err?.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

const REASONS = {
  400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
};

/** The raw HTTP/1.1 text of an error answer with `headers` (the site's security headers) and a one-line body. */
export function errorText(status, headers) {
  const body = `${REASONS[status].toLowerCase()}\n`;
  const fields = { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' };
  const lines = Object.entries(fields).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${REASONS[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * Answers on the socket and destroys it once the text is handed to the kernel (or after a second, should the client's
 * window be shut): end() alone waits for the client's FIN, which a client that never closes never sends.
 */
export function answerClientError(err, socket, headers) {
  if (!socket.writable || err?.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const timer = setTimeout(() => socket.destroy(), 1000);
  timer.unref();
  socket.end(errorText(clientErrorStatus(err), headers), () => {
    clearTimeout(timer);
    socket.destroy();
  });
}
