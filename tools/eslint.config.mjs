// ESLint for the page's JavaScript (web/). build.py runs it from .cache/node_modules.
import js from "@eslint/js";
import globals from "globals";

export default [
  // Third-party modules kept as their authors published them (see web/js/features/together/qr.js).
  { ignores: ["**/js/vendor/**"] },
  js.configs.recommended,
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.worker, ...globals.serviceworker },
    },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" }],
      eqeqeq: ["error", "smart"],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
];
