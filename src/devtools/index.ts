/** `taskwire/devtools`: an in-app panel of what the client did (docs/protocol.md; issue 14). */
export {};
