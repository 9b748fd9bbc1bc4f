// Opens a file to serve without ever blocking: only regular files are read, and a fault is told apart from a miss.

import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Opens `path` for reading with O_NONBLOCK, so that a FIFO (or a device) is opened at once rather than holding one of
 * libuv's four threads until a writer appears; resolves to { handle, info } (the caller closes the handle). The open
 * descriptor's own stat decides what it is, so nothing swapped in after a check is read.
 */
export async function openForServing(path) {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    return { handle, info: await handle.stat() };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** Errors that mean "there is no such file here" (answered 404); any other is the server's fault (5xx). */
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP', 'EISDIR']);

/**
 * The status for a file error: 404 for a miss, 403 for a file it may not read, 503 (retry soon) when the process has
 * run out of descriptors or memory (EMFILE, ENFILE, ENOMEM, EAGAIN), 500 for anything else.
 */
export function fileErrorStatus(err) {
  if (err?.outsideRoot || MISSING.has(err?.code)) return 404;
  if (err?.code === 'EACCES' || err?.code === 'EPERM') return 403;
  if (['EMFILE', 'ENFILE', 'ENOMEM', 'EAGAIN'].includes(err?.code)) return 503;
  return 500;
}
