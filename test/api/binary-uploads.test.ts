/**
 * A file that is not CSV text sent as data (a spreadsheet, an image, an archive, a gzip file sent
 * without Content-Encoding) is refused with a 400 that says what the file looks like and what to send
 * instead, by upload and by URL import alike; before, it failed on its first NUL byte ("a NUL
 * character is not allowed in CSV"). Nothing is created.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { crc32, gzipSync } from 'node:zlib';
import { backends } from '../support/backends.js';
import { finishedImport, startTestServer, type TestServer } from '../support/server.js';

/** A ZIP archive of stored (uncompressed) entries, laid out as Office files are: each entry's local header, then its bytes. */
function storedZip(entries: [name: string, text: string][]): Buffer {
  const parts: Buffer[] = [];
  for (const [name, text] of entries) {
    const data = Buffer.from(text);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    parts.push(header, Buffer.from(name), data);
  }
  return Buffer.concat(parts);
}

const CONTENT_TYPES = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';

/** The first bytes of each kind of file, and what the answer must say it looks like. */
const FILES: { name: string; bytes: Buffer; looksLike: RegExp; instead: RegExp }[] = [
  { name: 'xlsx', bytes: storedZip([['[Content_Types].xml', CONTENT_TYPES], ['xl/workbook.xml', '<workbook/>'], ['xl/worksheets/sheet1.xml', '<worksheet/>']]), looksLike: /an Excel workbook \(\.xlsx\)/, instead: /Save it as CSV/ },
  { name: 'docx', bytes: storedZip([['[Content_Types].xml', CONTENT_TYPES], ['word/document.xml', '<document/>']]), looksLike: /a Word document \(\.docx\)/, instead: /CSV/ },
  { name: 'zip', bytes: storedZip([['sales.csv', 'a,b\n1,2\n']]), looksLike: /a ZIP archive/, instead: /Unzip it/ },
  { name: 'xls', bytes: Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]), looksLike: /Excel 97–2003 workbook \(\.xls\)/, instead: /Save it as CSV/ },
  { name: 'png', bytes: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from('IHDR'), Buffer.alloc(17)]), looksLike: /a PNG image/, instead: /CSV/ },
  { name: 'jpeg', bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), Buffer.from('JFIF\0'), Buffer.alloc(9)]), looksLike: /a JPEG image/, instead: /CSV/ },
  { name: 'gif', bytes: Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0x80, 0, 0])]), looksLike: /a GIF image/, instead: /CSV/ },
  { name: 'pdf', bytes: Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n\0', 'latin1'), looksLike: /a PDF document/, instead: /CSV/ },
  { name: 'gzip', bytes: gzipSync('a,b\n1,2\n3,4\n'), looksLike: /a gzip-compressed file/, instead: /uncompressed/ },
  { name: 'parquet', bytes: Buffer.concat([Buffer.from('PAR1'), Buffer.from([0x15, 0x04, 0x15, 0x10, 0x15, 0x14, 0x4c, 0x15, 0x02, 0x15, 0x00, 0x12, 0x00, 0x00])]), looksLike: /a Parquet file/, instead: /to_csv/ },
  { name: 'utf16', bytes: Buffer.from('\ufeffa\tb\r\n1\t2\r\n', 'utf16le'), looksLike: /UTF-16 text/, instead: /CSV UTF-8/ },
];

for (const backend of await backends()) {
  describe(`a binary file sent as data is refused, saying what it looks like (${backend})`, () => {
    let s: TestServer;
    let files: Server;
    let filesUrl: string;
    before(async () => {
      s = await startTestServer(backend, { SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
      files = createServer((req, res) => {
        const file = FILES.find((f) => req.url === `/${f.name}.csv`);
        if (!file) { res.statusCode = 404; res.end(); return; }
        res.setHeader('content-type', 'text/csv');
        res.end(file.bytes);
      });
      await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
      filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
    });
    after(async () => { await s.close(); files.close(); });

    it('answers an upload 400 naming the kind of file and what to send, and creates nothing', async () => {
      for (const f of FILES) {
        const r = await s.call('PUT', `/v1/data/${f.name}`, { body: f.bytes, headers: { 'content-type': 'text/csv' } });
        assert.equal(r.status, 400, `${f.name}: ${r.text}`);
        assert.equal(r.json.errorType, 'RequestValidation');
        assert.match(r.json.message, f.looksLike, f.name);
        assert.match(r.json.errorDetails.data[0], f.instead, f.name);
        assert.doesNotMatch(r.text, /NUL/, f.name);
        assert.equal((await s.call('GET', `/v1/data/${f.name}`)).status, 404, `${f.name}: nothing created`);
      }
      // Text that merely starts like a signature is still CSV.
      const parquetNamed = await s.call('PUT', '/v1/data/par', { body: 'PAR1,GIF89a\n1,2\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(parquetNamed.status, 201, parquetNamed.text);
    });

    it('fails a URL import of such a file with the same words', async () => {
      for (const name of ['xlsx', 'png']) {
        const f = FILES.find((x) => x.name === name)!;
        const r = await s.call('POST', '/v1/imports/url', { json: { dataSetName: `imported-${name}`, url: `${filesUrl}/${name}.csv` } });
        assert.equal(r.status, 200, r.text);
        const done = await finishedImport(s, r.json.importId);
        assert.equal(done.json.status, 'failed', done.text);
        assert.match(done.json.messages.at(-1).message, f.looksLike);
        assert.equal((await s.call('GET', `/v1/data/imported-${name}`)).status, 404);
      }
    });
  });
}
