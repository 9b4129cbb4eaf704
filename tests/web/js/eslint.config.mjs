// eslint over the browser's modules and these tests (make js-check): the recommended rules, with
// the browser's globals for the client and node's for the tests and scripts here. Run from the
// repository's root with --config (make js-check does), as the client lives outside this folder.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["tests/web/js/node_modules/"] },
  js.configs.recommended,
  {
    files: ["src/rebelspace/web/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tests/web/js/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
