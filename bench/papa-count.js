// Counts the data rows of a CSV file with PapaParse, streaming (peer of
// BenchmarkInspect50MB in bench/inspect.sh).
const fs = require('fs');
const Papa = require('papaparse');

let rows = 0;
Papa.parse(fs.createReadStream(process.argv[2]), {
  skipEmptyLines: true,
  chunk: (results) => { rows += results.data.length; },
  complete: () => { console.log(rows - 1); },
  error: (err) => { console.error(err); process.exit(1); },
});
