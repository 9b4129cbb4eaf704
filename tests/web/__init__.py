"""End-to-end tests of the browser client (Chromium through Playwright)."""
