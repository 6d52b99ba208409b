// Writes the Office fixtures of daemon/src/docs/office_test.cc into fixtures/:
// real documents from real producers (npm docx, pptxgenjs, exceljs) and hostile
// files derived from them. The output is committed; run again after changing
// this script (npm ci && node make_office.mjs) and review the diff.
//
// Each zip is re-packed by JSZip (the container all three producers use) with
// fixed dates, so that running the script twice writes the same bytes.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";

import * as docx from "docx";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import PptxGenJS from "pptxgenjs";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "fixtures");
const hostile = join(out, "hostile");
mkdirSync(hostile, { recursive: true });
mkdirSync(join(out, "regressions"), { recursive: true });

const fixedDate = new Date("2024-01-02T03:04:05Z");

// Same bytes on every run: fixed entry dates, fixed docProps dates, sorted
// entries left in the producer's order.
async function repack(bytes, edit = async () => {}) {
  const zip = await JSZip.loadAsync(bytes);
  await edit(zip);
  const core = zip.file("docProps/core.xml");
  if (core) {
    const xml = (await core.async("string")).replace(
      /(<dcterms:(?:created|modified)[^>]*>)[^<]*(<\/dcterms:)/g,
      `$1${fixedDate.toISOString().replace(/\.\d+Z$/, "Z")}$2`);
    zip.file("docProps/core.xml", xml);
  }
  for (const entry of Object.values(zip.files)) entry.date = fixedDate;
  return zip.generateAsync({
    type: "nodebuffer",
    compression: "DEFLATE",
    compressionOptions: { level: 9 },
  });
}

function save(name, bytes) {
  writeFileSync(join(out, name), bytes);
  console.log(`${name}: ${bytes.length} bytes`);
}
function saveHostile(name, bytes) {
  writeFileSync(join(hostile, name), bytes);
  console.log(`hostile/${name}: ${bytes.length} bytes`);
}

// ---------------------------------------------------------------- docx

async function makeDocx() {
  const { Document, Paragraph, TextRun, HeadingLevel, Table, TableRow, TableCell, Tab,
          FootnoteReferenceRun, CommentRangeStart, CommentRangeEnd, CommentReference,
          TabStopType, WidthType } = docx;
  const cell = (text) => new TableCell({ children: [new Paragraph(text)] });
  const document = new Document({
    creator: "comP fixtures",
    title: "Quarterly report",
    comments: {
      children: [{
        id: 0, author: "Ada", initials: "AL", date: fixedDate,
        children: [new Paragraph("Check these numbers.")],
      }],
    },
    footnotes: {
      1: { children: [new Paragraph("Source: the 2023 ledger.")] },
    },
    sections: [{
      children: [
        new Paragraph("Draft, not for circulation."),
        new Paragraph({ text: "Quarterly report", heading: HeadingLevel.TITLE }),
        new Paragraph("Prepared by the finance team."),
        new Paragraph({ text: "Revenue", heading: HeadingLevel.HEADING_1 }),
        new Paragraph({
          children: [
            new TextRun("Revenue grew by 12%"),
            new FootnoteReferenceRun(1),
            new TextRun("."),
          ],
        }),
        // A tab stop definition (w:tabs/w:tab) and two tab characters (w:tab in runs).
        new Paragraph({
          tabStops: [{ type: TabStopType.LEFT, position: 2880 }],
          children: [new TextRun({ children: ["Region", new Tab(), "North", new Tab(), "South"] })],
        }),
        new Paragraph({
          children: [
            new TextRun("First line"),
            new TextRun({ text: "Second line", break: 1 }),
          ],
        }),
        new Table({
          width: { size: 100, type: WidthType.PERCENTAGE },
          rows: [
            new TableRow({ children: [cell("Quarter"), cell("Amount")] }),
            new TableRow({ children: [cell("Q1"), cell("100")] }),
            new TableRow({ children: [cell("Q2"), cell("112")] }),
          ],
        }),
        new Paragraph({ text: "Costs", heading: HeadingLevel.HEADING_2 }),
        new Paragraph({
          children: [
            new CommentRangeStart(0),
            new TextRun("Costs fell."),
            new CommentRangeEnd(0),
            new TextRun({ children: [new CommentReference(0)] }),
          ],
        }),
        new Paragraph({ text: "Outlook", heading: HeadingLevel.HEADING_1 }),
        new Paragraph("Stable."),
      ],
    }],
  });
  return repack(await docx.Packer.toBuffer(document));
}

// ---------------------------------------------------------------- pptx

async function makePptx() {
  const pptx = new PptxGenJS();
  pptx.layout = "LAYOUT_16x9";
  pptx.author = "comP fixtures";
  pptx.defineSlideMaster({
    title: "TITLED",
    objects: [
      { placeholder: { options: { name: "title", type: "title", x: 0.5, y: 0.2, w: 9, h: 1 }, text: "" } },
      { placeholder: { options: { name: "body", type: "body", x: 0.5, y: 1.4, w: 9, h: 3.8 }, text: "" } },
    ],
  });

  // Written as slide1.xml .. slide4.xml; shown in another order (see below).
  const intro = pptx.addSlide({ masterName: "TITLED" });
  intro.addText("Introduction", { placeholder: "title" });
  intro.addText("Why we are here", { placeholder: "body" });
  intro.addNotes("Greet the audience.");

  const numbers = pptx.addSlide({ masterName: "TITLED" });
  numbers.addText("Numbers", { placeholder: "title" });
  numbers.addTable([["Quarter", "Amount"], ["Q1", "100"], ["Q2", "112"]], { x: 0.5, y: 1.5, w: 6 });
  numbers.addNotes("Mention the Q2 growth.");

  const tabs = pptx.addSlide({ masterName: "TITLED" });
  tabs.addText("Tabs", { placeholder: "title" });
  tabs.addText([
    { text: "Name\tValue", options: { tabStops: [{ position: 2 }, { position: 4, alignment: "r" }] } },
    { text: "line two", options: { softBreakBefore: true } },
  ], { x: 0.5, y: 1.5, w: 9, h: 1 });

  const closing = pptx.addSlide({ masterName: "TITLED" });
  closing.addText("Closing", { placeholder: "title" });
  closing.addText("Questions?", { x: 0.5, y: 1.5, w: 9, h: 1 });
  closing.addNotes("Thank everyone.");

  const bytes = await pptx.write({ outputType: "nodebuffer" });
  // Moving slides in PowerPoint reorders p:sldIdLst and keeps the part names:
  // show slide3, slide1, slide4, slide2.
  return repack(bytes, async (zip) => {
    const rels = await zip.file("ppt/_rels/presentation.xml.rels").async("string");
    const idOf = (target) => {
      const m = rels.match(new RegExp(`Id="(rId\\d+)"[^>]*Target="slides/${target}"`)) ||
                rels.match(new RegExp(`Target="slides/${target}"[^>]*Id="(rId\\d+)"`));
      if (!m) throw new Error(`no relationship for ${target}`);
      return m[1];
    };
    const presentation = await zip.file("ppt/presentation.xml").async("string");
    const list = presentation.match(/<p:sldIdLst>([\s\S]*?)<\/p:sldIdLst>/);
    if (!list) throw new Error("no p:sldIdLst");
    const entries = [...list[1].matchAll(/<p:sldId [^>]*\/>/g)].map((m) => m[0]);
    const byRid = new Map(entries.map((e) => [e.match(/r:id="([^"]+)"/)[1], e]));
    const order = ["slide3.xml", "slide1.xml", "slide4.xml", "slide2.xml"].map((f) => byRid.get(idOf(f)));
    if (order.some((e) => !e)) throw new Error("slide ids not found");
    zip.file("ppt/presentation.xml",
             presentation.replace(list[0], `<p:sldIdLst>${order.join("")}</p:sldIdLst>`));
  });
}

// ---------------------------------------------------------------- xlsx

async function fillWorkbook(workbook) {
  workbook.creator = "comP fixtures";
  workbook.created = fixedDate;
  workbook.modified = fixedDate;

  const sales = workbook.addWorksheet("Sales");
  sales.addRow(["Region", "Quarter", "Amount", "Label"]);
  sales.addRow(["North", "Q1", 100, { formula: 'A2&"-"&B2', result: "North-Q1" }]);
  sales.addRow(["South", "Q1", 12.5, { formula: 'A3&"-"&B3', result: "South-Q1" }]);
  sales.addRow(["North", "Q2", 0.1, { formula: "C2>C3", result: true }]);
  sales.getCell("B6").value = { richText: [{ text: "Bold", font: { bold: true } }, { text: " and plain" }] };
  sales.getCell("D6").value = { formula: "SUM(C2:C4)", result: 112.6 };

  const notes = workbook.addWorksheet("Notes");
  notes.getCell("B2").value = "Only cell";
  notes.getCell("A4").value = "Below";

  const summary = workbook.addWorksheet("Summary");
  summary.addRow(["Total", 112.6]);
}

// sharedStrings: ExcelJS's workbook writer puts every string into
// xl/sharedStrings.xml; its streaming writer (without shared strings) writes
// plain strings as t="str" and rich text as t="inlineStr".
async function makeXlsx(sharedStrings) {
  let bytes;
  if (sharedStrings) {
    const workbook = new ExcelJS.Workbook();
    await fillWorkbook(workbook);
    bytes = await workbook.xlsx.writeBuffer();
  } else {
    const stream = new PassThrough();
    const chunks = [];
    stream.on("data", (chunk) => chunks.push(chunk));
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false });
    await fillWorkbook(workbook);
    await workbook.commit();
    bytes = Buffer.concat(chunks);
  }
  // Dragging a sheet tab in Excel reorders xl/workbook.xml's <sheets> and keeps
  // the part names: show Summary (sheet3.xml) first.
  return repack(bytes, async (zip) => {
    const xml = await zip.file("xl/workbook.xml").async("string");
    const sheets = xml.match(/<sheets>([\s\S]*?)<\/sheets>/);
    if (!sheets) throw new Error("no <sheets>");
    const entries = [...sheets[1].matchAll(/<sheet [^>]*\/>/g)].map((m) => m[0]);
    if (entries.length !== 3) throw new Error("expected 3 sheets");
    const reordered = [entries[2], entries[0], entries[1]];
    zip.file("xl/workbook.xml", xml.replace(sheets[0], `<sheets>${reordered.join("")}</sheets>`));
  });
}

// ---------------------------------------------------------------- hostile

async function withPart(bytes, part, content) {
  const zip = await JSZip.loadAsync(bytes);
  zip.file(part, content);
  for (const entry of Object.values(zip.files)) entry.date = fixedDate;
  return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE", compressionOptions: { level: 9 } });
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

async function makeHostile(docxBytes, pptxBytes, xlsxBytes) {
  // Not a zip at all.
  saveHostile("pdf_named.docx", Buffer.from("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"));
  // An OLE compound file (what an encrypted OOXML or a legacy .doc is): the
  // header's signature, byte order mark and sector shifts, then zeros.
  const ole = Buffer.alloc(1536);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole, 0);
  ole.writeUInt16LE(0x003e, 24);
  ole.writeUInt16LE(0x0003, 26);
  ole.writeUInt16LE(0xfffe, 28);
  ole.writeUInt16LE(9, 30);
  ole.writeUInt16LE(6, 32);
  saveHostile("ole.docx", ole);
  saveHostile("empty.xlsx", Buffer.alloc(0));

  // Truncated copies: the central directory is gone.
  saveHostile("truncated_half.docx", docxBytes.subarray(0, docxBytes.length >> 1));
  saveHostile("truncated_end.pptx", pptxBytes.subarray(0, pptxBytes.length - 10));
  saveHostile("truncated_start.xlsx", xlsxBytes.subarray(0, 100));

  // A deflate bomb: word/document.xml inflates to 200 MB of zeros.
  const zeros = Buffer.alloc(200 << 20);
  saveHostile("bomb.docx", await withPart(docxBytes, "word/document.xml", zeros));

  // Billion laughs: nested entities that would expand to 10^9 "lol"s.
  let dtd = '<!ENTITY lol "lol">';
  for (let i = 1; i <= 9; ++i) {
    dtd += `<!ENTITY lol${i} "${`&lol${i === 1 ? "" : i - 1};`.repeat(10)}">`;
  }
  const laughs = `<?xml version="1.0"?><!DOCTYPE w:document [${dtd}]>` +
    `<w:document ${W}><w:body><w:p><w:r><w:t>before &lol9; after</w:t></w:r></w:p></w:body></w:document>`;
  saveHostile("billion_laughs.docx", await withPart(docxBytes, "word/document.xml", laughs));

  // 100,000 nested elements (short names: 700 KB, under the ratio check's grace).
  const depth = 100000;
  const deep = `<w:document ${W}><w:body><w:p><w:r><w:t>shallow</w:t></w:r></w:p>` +
    "<x>".repeat(depth) + "<w:p><w:r><w:t>deep</w:t></w:r></w:p>" +
    "</x>".repeat(depth) + "</w:body></w:document>";
  saveHostile("deep.docx", await withPart(docxBytes, "word/document.xml", deep));

  // Bytes that are not UTF-8 in text, in a heading and in a sheet name.
  const bad = Buffer.concat([
    Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>` +
                '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Head'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from("</w:t></w:r></w:p><w:p><w:r><w:t>caf"),
    Buffer.from([0xc3]),  // a lead byte without its continuation
    Buffer.from(" ok "),
    Buffer.from([0xed, 0xa0, 0x80]),  // an encoded surrogate
    Buffer.from("</w:t></w:r></w:p></w:body></w:document>"),
  ]);
  saveHostile("invalid_utf8.docx", await withPart(docxBytes, "word/document.xml", bad));

  // A .docx that is a presentation.
  saveHostile("pptx_named.docx", pptxBytes);

  // Parts missing: a slide the presentation lists and a sheet the workbook lists.
  {
    const zip = await JSZip.loadAsync(pptxBytes);
    zip.remove("ppt/slides/slide2.xml");
    for (const entry of Object.values(zip.files)) entry.date = fixedDate;
    saveHostile("missing_slide.pptx", await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" }));
  }
  {
    const zip = await JSZip.loadAsync(xlsxBytes);
    zip.remove("xl/worksheets/sheet2.xml");
    zip.remove("xl/sharedStrings.xml");
    for (const entry of Object.values(zip.files)) entry.date = fixedDate;
    saveHostile("missing_sheet.xlsx", await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" }));
  }
}

const docxBytes = await makeDocx();
const pptxBytes = await makePptx();
const xlsxBytes = await makeXlsx(true);
save("report.docx", docxBytes);
save("slides.pptx", pptxBytes);
save("sheets.xlsx", xlsxBytes);
save("sheets_inline.xlsx", await makeXlsx(false));
await makeHostile(docxBytes, pptxBytes, xlsxBytes);
