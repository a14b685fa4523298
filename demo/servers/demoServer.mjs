#!/usr/bin/env node
// Demo MCP server over stdio. Start it from .vscode/mcp.json.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createDemoServer } from './demoTools.mjs';

await createDemoServer('demo-stdio').connect(new StdioServerTransport());
