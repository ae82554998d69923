"""End-to-end tests: a tool loop through each official SDK client, over an intercepted transport."""
