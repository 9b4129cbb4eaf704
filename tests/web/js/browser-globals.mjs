// The few browser globals the client's modules touch when they are loaded or when a pure
// function of theirs runs (errors.js looks up its box on load; api.js keeps seat tokens in
// localStorage and builds links from location): enough for node --test, no DOM. Import this
// before the client's modules, and load them with a dynamic import() after it.

class MemoryStorage {
  constructor() {
    this.items = new Map();
  }
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
  removeItem(key) {
    this.items.delete(key);
  }
  clear() {
    this.items.clear();
  }
}

globalThis.localStorage = new MemoryStorage();
globalThis.location = { origin: "https://rebelspace.test", protocol: "https:", host: "rebelspace.test", search: "" };
globalThis.document = { getElementById: () => null };
