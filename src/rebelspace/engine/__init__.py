"""The Rebel Space rules engine: pure game logic, no I/O beyond reading card data."""
