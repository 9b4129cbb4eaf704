// Writes src/rebelspace/web/protocol.d.ts, the state message's types for tsc's checking of the
// browser's modules, from docs/protocol.schema.json (the schema the server's messages are tested
// against), so the two cannot drift apart: tests/web/test_protocol_types.py fails when the file
// is not what this script prints. `node protocol-types.mjs` prints it; `make protocol-types`
// writes it.
import { readFile } from "node:fs/promises";
import { compile } from "json-schema-to-typescript";

const schemaUrl = new URL("../../../docs/protocol.schema.json", import.meta.url);
const schema = JSON.parse(await readFile(schemaUrl, "utf8"));
const banner = [
  "// Over 500 lines: generated from docs/protocol.schema.json by tests/web/js/protocol-types.mjs",
  "// (`make protocol-types`); never edited by hand. tests/web/test_protocol_types.py checks it is",
  "// up to date.",
].join("\n");
// unreachableDefinitions: every event's own shape too, which the schema reaches only through
// `if`/`then` (json-schema-to-typescript follows neither).
const ts = await compile(schema, "StateMessage", { bannerComment: banner, unreachableDefinitions: true, additionalProperties: false });
process.stdout.write(ts);
