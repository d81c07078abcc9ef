// exceljs streaming writer on the same CSV: the peer of BenchmarkExport400k.
// usage: node exceljs-export.js IN.csv OUT.xlsx
const fs = require('fs');
const ExcelJS = require('exceljs');
const { parse } = require('@fast-csv/parse');

const [src, dst] = process.argv.slice(2);
const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: dst, useStyles: false, useSharedStrings: false });
const ws = wb.addWorksheet('Results');
let n = 0;
fs.createReadStream(src)
  .pipe(parse())
  .on('error', (e) => { console.error(e); process.exit(1); })
  .on('data', (row) => { ws.addRow(row).commit(); n++; })
  .on('end', async () => {
    ws.commit();
    await wb.commit();
    console.error(`exceljs: ${n} rows`);
  });
