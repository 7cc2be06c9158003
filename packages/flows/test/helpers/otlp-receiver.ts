import { createServer, type Server } from 'node:http';

/** A span as the receiver decoded it, from either OTLP/HTTP encoding. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code: number; message: string };
  resource: Record<string, unknown>;
}

type Fields = Map<number, Array<bigint | Buffer>>;

/** Reads one protobuf message into its fields by number (varints as bigint, fixed64 as its 8 bytes, length-delimited as bytes). */
function fieldsOf(buffer: Buffer): Fields {
  const fields: Fields = new Map();
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buffer[at++];
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const field = key >>> 3;
    let value: bigint | Buffer;
    switch (key & 7) {
      case 0:
        value = varint();
        break;
      case 1:
        value = buffer.subarray(at, at + 8);
        at += 8;
        break;
      case 2: {
        const length = Number(varint());
        value = buffer.subarray(at, at + length);
        at += length;
        break;
      }
      case 5:
        value = buffer.subarray(at, at + 4);
        at += 4;
        break;
      default:
        throw new Error(`unsupported wire type ${key & 7}`);
    }
    fields.set(field, [...(fields.get(field) ?? []), value]);
  }
  return fields;
}

const bytes = (fields: Fields, n: number) => (fields.get(n)?.[0] as Buffer | undefined) ?? Buffer.alloc(0);
const all = (fields: Fields, n: number) => (fields.get(n) ?? []) as Buffer[];

/** An OTLP AnyValue (string, bool, int, double, array). */
function anyValue(buffer: Buffer): unknown {
  const f = fieldsOf(buffer);
  if (f.has(1)) return bytes(f, 1).toString('utf8');
  if (f.has(2)) return f.get(2)![0] === 1n;
  if (f.has(3)) return Number(BigInt.asIntN(64, f.get(3)![0] as bigint));
  if (f.has(4)) return bytes(f, 4).readDoubleLE(0);
  if (f.has(5)) return all(fieldsOf(bytes(f, 5)), 1).map(anyValue);
  return undefined;
}

function protoAttributes(list: Buffer[]): Record<string, unknown> {
  return Object.fromEntries(list.map((kv) => fieldsOf(kv)).map((kv) => [bytes(kv, 1).toString('utf8'), anyValue(bytes(kv, 2))]));
}

/** ExportTraceServiceRequest in protobuf → spans. */
function decodeProtobuf(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of all(fieldsOf(body), 1).map(fieldsOf)) {
    const resource = protoAttributes(all(fieldsOf(bytes(resourceSpans, 1)), 1));
    for (const scopeSpans of all(resourceSpans, 2).map(fieldsOf)) {
      for (const span of all(scopeSpans, 2).map(fieldsOf)) {
        const status = fieldsOf(bytes(span, 15));
        spans.push({
          traceId: bytes(span, 1).toString('hex'),
          spanId: bytes(span, 2).toString('hex'),
          parentSpanId: bytes(span, 4).toString('hex'),
          name: bytes(span, 5).toString('utf8'),
          kind: Number(span.get(6)?.[0] ?? 0n),
          attributes: protoAttributes(all(span, 9)),
          status: { code: Number(status.get(3)?.[0] ?? 0n), message: bytes(status, 2).toString('utf8') },
          resource,
        });
      }
    }
  }
  return spans;
}

type JsonValue = { stringValue?: string; boolValue?: boolean; intValue?: string | number; doubleValue?: number; arrayValue?: { values?: JsonValue[] } };

function jsonValue(value: JsonValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(jsonValue);
  return undefined;
}

function jsonAttributes(list: Array<{ key: string; value: JsonValue }> | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value)]));
}

/** ExportTraceServiceRequest in OTLP JSON → spans. */
function decodeJson(body: Buffer): ReceivedSpan[] {
  const request = JSON.parse(body.toString('utf8'));
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        spans.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          kind: span.kind,
          attributes: jsonAttributes(span.attributes),
          status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
          resource,
        });
      }
    }
  }
  return spans;
}

/**
 * A local OTLP/HTTP trace receiver: decodes what exporters send to POST /v1/traces, in either encoding,
 * and keeps the raw bodies (so a test can look for what must never be sent). `hold` makes it take
 * requests without ever answering (a collector that is slow past the exporter's timeout).
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly bodies: Buffer[] = [];
  readonly contentTypes: string[] = [];
  hold = false;
  /** Requests received and not answered yet. */
  pending = 0;
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      this.pending += 1;
      if (this.hold) return;
      const type = String(req.headers['content-type']);
      this.contentTypes.push(type);
      this.bodies.push(body);
      this.spans.push(...(type.includes('json') ? decodeJson(body) : decodeProtobuf(body)));
      this.pending -= 1;
      res.writeHead(200, { 'content-type': type }).end(type.includes('json') ? '{}' : '');
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${address.port}`;
    return this;
  }

  /** Waits until spans named `name` (or any when omitted) have arrived. */
  async waitFor(predicate: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
    for (let i = 0; i < 200; i++) {
      if (predicate(this.spans)) return this.spans;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`spans never arrived; got ${this.spans.map((s) => s.name).join(', ')}`);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
