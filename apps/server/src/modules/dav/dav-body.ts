import type { FastifyRequest } from 'fastify';
import { DavError } from './dav-errors.js';
import { parseXml, type XmlElement } from './xml.js';

/** The largest XML body a WebDAV request may carry (PROPFIND, PROPPATCH, LOCK): 64 KiB. */
export const XML_BODY_LIMIT = 64 * 1024;

/** The declared Content-Length, undefined when absent (chunked); 400 when not a number. */
export function declaredLength(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  if (header === undefined) return undefined;
  if (!/^\d{1,15}$/.test(header)) throw new DavError(400);
  return Number(header);
}

/**
 * A request's body as text, read from the socket with a hard cap: past XML_BODY_LIMIT the
 * answer is 413 (the rest is not read). Only XML or no Content-Type is taken (else 415);
 * bytes that are not UTF-8 are 400. '' when there is no body.
 */
export async function readTextBody(request: FastifyRequest): Promise<string> {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  const length = declaredLength(request);
  const hasBody = length !== undefined ? length > 0 : request.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return '';
  if (type && type !== 'application/xml' && type !== 'text/xml') throw new DavError(415);
  if (length !== undefined && length > XML_BODY_LIMIT) throw new DavError(413);
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of request.raw) {
    size += (piece as Buffer).length;
    if (size > XML_BODY_LIMIT) throw new DavError(413);
    pieces.push(piece as Buffer);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(pieces));
  } catch {
    throw new DavError(400);
  }
}

/** The XML body's root element, or undefined when there is no body. Malformed or refused XML is 400. */
export async function readXmlBody(request: FastifyRequest): Promise<XmlElement | undefined> {
  const text = await readTextBody(request);
  if (text.trim() === '') return undefined;
  return parseXml(text);
}

/** True when the request carries a body (MKCOL with one is 415). */
export function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}
