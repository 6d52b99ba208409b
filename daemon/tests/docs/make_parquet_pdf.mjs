// Writes the PDF and Parquet fixtures of daemon/src/docs/{pdf,parquet}_test.cc
// into fixtures/, from real producers, plus the oracles the tests compare
// against. The output is committed; run again after changing this script
// (npm ci && node make_parquet_pdf.mjs) and review the diff.
//
//  - PDFs by pdfkit. pdf.oracle.json lists, per file, the strings written on
//    each page (the producer's own input: an oracle independent of poppler).
//  - Parquet by DuckDB (COPY ... TO ... (FORMAT parquet)) and by parquet-wasm
//    (the Rust `parquet` crate) from an Apache Arrow table. Beside each,
//    x.parquet.oracle.json holds what DuckDB's parquet_schema(),
//    parquet_file_metadata(), parquet_metadata() and parquet_kv_metadata()
//    report for it: the footer as another reader decodes it.
//
// Same bytes on every run: fixed dates in the PDFs (pdfkit derives the file
// id from them), one DuckDB thread and deterministic data in the Parquet files.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { DuckDBInstance } from "@duckdb/node-api";
import * as arrow from "apache-arrow";
import * as parquetWasm from "parquet-wasm";
import PDFDocument from "pdfkit";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "fixtures");
mkdirSync(out, { recursive: true });

const fixedDate = new Date("2024-01-02T03:04:05Z");

// --- PDF ---------------------------------------------------------------------

// One PDF from a list of pages, each a list of paragraphs; resolves to the bytes.
function makePdf(pages, options = {}) {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      autoFirstPage: false,
      compress: true,
      info: { Title: "comP fixture", Author: "comP", CreationDate: fixedDate, ModDate: fixedDate },
      ...options,
    });
    const chunks = [];
    doc.on("data", (c) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    for (const paragraphs of pages) {
      doc.addPage({ size: "A4", margin: 56 });
      doc.font("Helvetica");
      for (const p of paragraphs) {
        if (p.heading) doc.fontSize(18).text(p.heading).moveDown(0.5);
        if (p.text) doc.fontSize(11).text(p.text).moveDown(0.5);
      }
    }
    doc.end();
  });
}

// Text on each page (strings without line breaks, short enough not to wrap,
// so pdftotext must return each one verbatim).
const threePages = [
  [
    { heading: "Quarterly Report" },
    { text: "Revenue grew by twelve percent in the first quarter." },
    { text: "The invoice pipeline handles retries with exponential backoff." },
  ],
  [
    { heading: "Grüße aus Köln" },
    { text: "Café, naïve façade, Zürich, señor, smörgåsbord." },
    { text: "Prices: 12 € per unit – “quoted” and ‘single’ marks." },
  ],
  [
    { heading: "Appendix" },
    { text: "The parseInvoiceTotals function rounds half to even." },
    { text: "End of document marker zebra-42." },
  ],
];
const emptyMiddle = [
  [{ heading: "Before the gap" }, { text: "First page text alpha." }],
  [],
  [{ heading: "After the gap" }, { text: "Third page text omega." }],
];
const secret = [[{ heading: "Confidential" }, { text: "Only with the password." }]];

const strings = (pages) => pages.map((p) => p.flatMap((x) => [x.heading, x.text].filter(Boolean)));

const pdfs = {
  "three_pages.pdf": { pages: threePages },
  "empty_page.pdf": { pages: emptyMiddle },
  // RC4 128-bit (PDF 1.4): pdftotext refuses it without the password. (AES,
  // PDF 1.7, would draw a random IV and change the bytes on every run.)
  "encrypted.pdf": { pages: secret, options: { userPassword: "secret", ownerPassword: "owner", pdfVersion: "1.4" } },
};
const pdfOracle = {};
for (const [name, { pages, options }] of Object.entries(pdfs)) {
  const bytes = await makePdf(pages, options);
  writeFileSync(join(out, name), bytes);
  pdfOracle[name] = { pages: strings(pages), encrypted: Boolean(options?.userPassword) };
}
writeFileSync(join(out, "pdf.oracle.json"), JSON.stringify(pdfOracle, null, 2) + "\n");

// --- Parquet -----------------------------------------------------------------

const db = await DuckDBInstance.create(":memory:");
const con = await db.connect();
await con.run("SET threads = 1");

// Nested STRUCT, LIST, MAP, DECIMAL, TIMESTAMP(s), DATE, TIME, VARCHAR, UUID,
// ENUM, BLOB, INTERVAL, unsigned and small integers; several row groups.
await con.run(`CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')`);
const ordersPath = join(out, "orders.parquet");
await con.run(`
  COPY (
    SELECT
      i::BIGINT AS id,
      {'name': 'customer ' || (i % 97),
       'address': {'street': (i % 13) || ' Main St', 'zip': lpad((i % 1000)::VARCHAR, 5, '0'),
                   'geo': {'lat': (i % 90)::DOUBLE / 3, 'lon': (i % 180)::DOUBLE / 7}}} AS customer,
      ['tag' || (i % 5), 'tag' || (i % 7)] AS tags,
      [{'sku': 'SKU-' || (i % 31), 'qty': (i % 4)::INTEGER}] AS items,
      MAP {'priority': (i % 3)::INTEGER, 'weight': (i % 11)::INTEGER} AS attrs,
      (((i * 7919) % 1000000) / 1000)::DECIMAL(18, 3) AS amount,
      ((i % 100) / 10)::DECIMAL(4, 2) AS discount,
      TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) MINUTE AS created_at,
      TIMESTAMPTZ '2024-01-01 00:00:00+00' + INTERVAL (i) SECOND AS created_tz,
      (TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) SECOND)::TIMESTAMP_MS AS created_ms,
      (TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) SECOND)::TIMESTAMP_NS AS created_ns,
      DATE '2024-01-01' + (i % 365)::INTEGER AS day,
      TIME '08:00:00' + INTERVAL (i % 600) MINUTE AS at_time,
      'note ' || i AS note,
      md5((i % 64)::VARCHAR)::UUID AS uid,
      (['sad', 'ok', 'happy'][1 + i % 3])::mood AS mood,
      (i % 2 = 0) AS flag,
      (i / 3)::FLOAT AS ratio,
      (i % 100)::TINYINT AS tiny,
      (i % 60000)::USMALLINT AS u16,
      i::UBIGINT AS u64,
      ('blob' || i)::BLOB AS raw,
      INTERVAL (i % 48) HOUR AS span
    FROM range(5000) t(i)
  ) TO '${ordersPath}'
  (FORMAT parquet, ROW_GROUP_SIZE 2048, COMPRESSION zstd,
   KV_METADATA {owner: 'comP fixtures', purpose: 'schema oracle test', unicode: 'Grüße ✓ 日本'})`);

// A flat file with one row group, field ids and no key-value metadata.
const flatPath = join(out, "flat.parquet");
await con.run(`
  COPY (SELECT i AS n, 'row ' || i AS label FROM range(10) t(i))
  TO '${flatPath}' (FORMAT parquet, FIELD_IDS {n: 7, label: 8})`);

// An encrypted footer ("PARE" magic), by DuckDB's Parquet modular encryption.
// DuckDB writes it only with its built-in crypto module, which it calls
// unsafe (no httpfs/OpenSSL here): fine for a fixture. AES-GCM draws random
// nonces, so this file's bytes change on every run (its size does not).
await con.run("SET force_mbedtls_unsafe = 'true'");
await con.run("PRAGMA add_parquet_key('fixture_key', '0123456789abcdef')");
await con.run(`
  COPY (SELECT 1 AS a, 'secret' AS b) TO '${join(out, "encrypted.parquet")}'
  (FORMAT parquet, ENCRYPTION_CONFIG {footer_key: 'fixture_key'})`);

// parquet-wasm (Rust parquet + arrow): the Arrow schema travels as the
// ARROW:schema key-value entry; LIST as "list"/"item" (or "element").
{
  const n = 50;
  const table = arrow.tableFromArrays({
    id: Int32Array.from({ length: n }, (_, i) => i),
    name: Array.from({ length: n }, (_, i) => `name ${i}`),
    score: Float64Array.from({ length: n }, (_, i) => i / 4),
  });
  // Nested columns: build vectors with explicit types.
  const listType = new arrow.List(new arrow.Field("item", new arrow.Int64(), true));
  const structType = new arrow.Struct([
    new arrow.Field("city", new arrow.Utf8(), true),
    new arrow.Field("zip", new arrow.Int32(), true),
  ]);
  const tsType = new arrow.TimestampMillisecond("UTC");
  const values = Array.from({ length: n }, (_, i) => [BigInt(i), BigInt(i * 2)]);
  const where = Array.from({ length: n }, (_, i) => ({ city: `city ${i % 4}`, zip: 10000 + i }));
  const when = Array.from({ length: n }, (_, i) => Date.UTC(2024, 0, 1) + i * 1000);
  const full = new arrow.Table({
    ...Object.fromEntries(table.schema.fields.map((f) => [f.name, table.getChild(f.name)])),
    numbers: arrow.vectorFromArray(values, listType),
    place: arrow.vectorFromArray(where, structType),
    seen_at: arrow.vectorFromArray(when, tsType),
  });
  const wasmTable = parquetWasm.Table.fromIPCStream(arrow.tableToIPC(full, "stream"));
  const props = new parquetWasm.WriterPropertiesBuilder()
    .setMaxRowGroupSize(20)
    .setCreatedBy("parquet-wasm 0.6.1 (comP fixture)")
    .setKeyValueMetadata(new Map([["source", "parquet-wasm fixture"]]))
    .build();
  writeFileSync(join(out, "wasm.parquet"), parquetWasm.writeParquet(wasmTable, props));
}

// The oracle: what DuckDB reads from each footer.
async function rows(sql) {
  const reader = await con.runAndReadAll(sql);
  return reader.getRowObjectsJson();
}
for (const name of ["orders.parquet", "flat.parquet", "wasm.parquet"]) {
  const path = join(out, name).replaceAll("'", "''");
  const strip = (objects) => objects.map(({ file_name, ...rest }) => rest);
  const oracle = {
    producer: "DuckDB " + (await rows("SELECT version() AS v"))[0].v,
    file_metadata: strip(await rows(
      `SELECT created_by, num_rows, num_row_groups, format_version FROM parquet_file_metadata('${path}')`))[0],
    schema: strip(await rows(
      `SELECT name, type, type_length, repetition_type, num_children, converted_type, scale, precision,
              field_id, logical_type FROM parquet_schema('${path}')`)),
    row_groups: await rows(
      `SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata('${path}') ORDER BY row_group_id`),
    key_value_metadata: await rows(
      `SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata('${path}')`),
  };
  writeFileSync(join(out, `${name}.oracle.json`), JSON.stringify(oracle, null, 2) + "\n");
}

for (const name of [...Object.keys(pdfs), "orders.parquet", "flat.parquet", "wasm.parquet", "encrypted.parquet"]) {
  console.log(`${name}: ${readFileSync(join(out, name)).length} bytes`);
}
