/**
 * S3 and Azure Blob objects as data-file streams, fetched with the clouds' own SDKs
 * (@aws-sdk/client-s3, @azure/storage-blob) under our outbound rules: the endpoint must pass the
 * guard (guarded agents pin a public address unless the host is allow-listed), one deadline covers
 * the request and the body, the body is bounded and gzip files are decompressed (outbound/).
 * Credentials come from the caller and live only in memory for the transfer; error messages are
 * scrubbed of them before they reach an import's messages.
 */
import type { Readable } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BlobServiceClient } from '@azure/storage-blob';
import { assertTargetAllowed, Deadline, guardedAgents, OutboundFailed, sdkBodyStream } from '../../outbound/index.js';

export interface CloudLimits {
  allowHosts: Set<string>;
  maxBytes: number;
  timeoutMs: number;
}

export interface CloudObject {
  stream: Readable;
  contentType: string | undefined;
  /** Where it came from, without credentials (for messages). */
  source: string;
  /** The object's name, for the format guess by extension. */
  name: string;
}

export interface S3Location { bucket: string; path: string; region: string; endpoint?: string }
export interface S3Credentials { accessKeyId?: string; secretAccessKey?: string; sessionToken?: string }
export interface AzureLocation { container: string; blob: string }

export const DEFAULT_S3_REGION = 'us-east-1';

/** The address an S3 request goes to: the given endpoint (S3-compatible services), else AWS's regional one. */
export function s3EndpointUrl(loc: S3Location): URL {
  return new URL(loc.endpoint ?? `https://s3.${loc.region}.amazonaws.com`);
}

export async function openS3Object(loc: S3Location, creds: S3Credentials, limits: CloudLimits): Promise<CloudObject> {
  const endpoint = s3EndpointUrl(loc);
  assertTargetAllowed(endpoint, limits.allowHosts);
  const agents = guardedAgents(limits.allowHosts);
  const source = `s3://${loc.bucket}/${loc.path}`;
  const deadline = new Deadline(limits.timeoutMs, `download of ${source}`);
  const abort = new AbortController();
  deadline.whenExpired(() => abort.abort(deadline.error));
  const client = new S3Client({
    region: loc.region,
    endpoint: loc.endpoint,
    forcePathStyle: loc.endpoint !== undefined,
    // Without keys the request goes unsigned (a public object), never with credentials found on this machine.
    credentials: creds.accessKeyId && creds.secretAccessKey
      ? { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, sessionToken: creds.sessionToken }
      : { accessKeyId: '', secretAccessKey: '' },
    signer: creds.accessKeyId && creds.secretAccessKey ? undefined : { sign: async (request) => request },
    requestHandler: { httpAgent: agents.http, httpsAgent: agents.https },
    maxAttempts: 1,
  });
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: loc.bucket, Key: loc.path }), { abortSignal: abort.signal });
    if (!out.Body) throw new OutboundFailed(`${source}: the object has no body`);
    const stream = sdkBodyStream(out.Body as AsyncIterable<Buffer>, { maxBytes: limits.maxBytes, deadline, what: `download of ${source}`, release: () => client.destroy() });
    return { stream, contentType: out.ContentType, source, name: loc.path };
  } catch (e) {
    deadline.finish();
    client.destroy();
    if (deadline.expired) throw deadline.error;
    throw new OutboundFailed(`${source}: ${s3Problem(e)}`, { cause: e });
  }
}

function s3Problem(e: unknown): string {
  const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = err.$metadata?.httpStatusCode;
  const name = err.name ?? 'Error';
  const hint: Record<string, string> = {
    NoSuchBucket: 'the bucket does not exist',
    NoSuchKey: 'no object at this path in the bucket',
    InvalidAccessKeyId: 'the access key id is not known to the storage service',
    SignatureDoesNotMatch: 'the secret access key does not match the access key id',
    AccessDenied: 'access denied with these credentials',
  };
  return `${hint[name] ?? firstLine(err.message ?? name)} (${name}${status ? `, HTTP ${status}` : ''})`;
}

export async function openAzureBlob(connectionString: string, loc: AzureLocation, limits: CloudLimits): Promise<CloudObject> {
  const source = `azure blob ${loc.container}/${loc.blob}`;
  let service: BlobServiceClient;
  try {
    service = BlobServiceClient.fromConnectionString(connectionString, { retryOptions: { maxTries: 1 } });
  } catch (e) {
    throw new OutboundFailed(`${source}: the connection string is not usable (${firstLine((e as Error).message).replace(connectionString, 'redacted')})`);
  }
  assertTargetAllowed(new URL(service.url), limits.allowHosts);
  const agents = guardedAgents(limits.allowHosts);
  const deadline = new Deadline(limits.timeoutMs, `download of ${source}`);
  const abort = new AbortController();
  deadline.whenExpired(() => abort.abort(deadline.error));
  const blob = service.getContainerClient(loc.container).getBlobClient(loc.blob);
  try {
    guardPipeline(blob, agents);
    const out = await blob.download(0, undefined, { abortSignal: abort.signal });
    if (!out.readableStreamBody) throw new OutboundFailed(`${source}: the blob has no body`);
    const stream = sdkBodyStream(out.readableStreamBody as unknown as AsyncIterable<Buffer>, { maxBytes: limits.maxBytes, deadline, what: `download of ${source}` });
    return { stream, contentType: out.contentType, source, name: loc.blob };
  } catch (e) {
    deadline.finish();
    if (deadline.expired) throw deadline.error;
    if (e instanceof OutboundFailed) throw e;
    throw new OutboundFailed(`${source}: ${azureProblem(e)}`, { cause: e });
  }
}

type AgentPolicy = { name: string; sendRequest(req: { url: string; agent?: unknown }, next: (req: unknown) => Promise<unknown>): Promise<unknown> };

/**
 * Puts the guarded agents under every request of this blob client's pipeline (the SDK's own HTTP
 * client uses `request.agent` when one is set). Should the SDK's internals ever move, the import
 * fails rather than going out unguarded.
 */
function guardPipeline(blob: object, agents: ReturnType<typeof guardedAgents>): void {
  const pipeline = (blob as { storageClientContext?: { pipeline?: { addPolicy?(p: AgentPolicy): void } } }).storageClientContext?.pipeline;
  if (typeof pipeline?.addPolicy !== 'function') throw new OutboundFailed('the Azure SDK offers no way to apply the outbound address rules; refusing to connect');
  pipeline.addPolicy({
    name: 'sibylOutboundGuard',
    sendRequest: (req, next) => {
      req.agent = req.url.startsWith('https:') ? agents.https : agents.http;
      return next(req);
    },
  });
}

function azureProblem(e: unknown): string {
  const err = e as { code?: string; statusCode?: number; message?: string; details?: { errorCode?: string } };
  const code = err.details?.errorCode ?? err.code ?? 'Error';
  const hint: Record<string, string> = {
    ContainerNotFound: 'the container does not exist',
    BlobNotFound: 'no blob of this name in the container',
    AuthenticationFailed: 'the account key in the connection string was refused',
    AuthorizationFailure: 'access denied with these credentials',
  };
  return `${hint[code] ?? firstLine(err.message ?? code)} (${code}${err.statusCode ? `, HTTP ${err.statusCode}` : ''})`;
}

const firstLine = (s: string) => s.split('\n')[0]!.slice(0, 300);
