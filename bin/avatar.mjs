#!/usr/bin/env node
// The package runs TypeScript through tsx: register it, then hand over to the command line.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/avatar.ts');
process.exitCode = await main(process.argv.slice(2));
