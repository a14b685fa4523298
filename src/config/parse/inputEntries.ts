/**
 * The `inputs` of mcp.json (or the `mcpElicitation.inputs` setting): `promptString`,
 * `pickString` and `command` inputs as VS Code defines them. A bad input is reported and skipped.
 */
import type { InputDefinition } from './definitions';
import { isRecord, own } from './jsonValues';
import type { Locate, Report } from './report';

export function parseInputs(value: unknown, root: object, locate: Locate, report: Report): InputDefinition[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    report({ key: 'inputs', message: '"inputs" must be an array', at: locate(root, 'inputs') });
    return [];
  }
  const inputs: InputDefinition[] = [];
  value.forEach((raw: unknown, i) => {
    const at = locate(value, i);
    const bad = (suffix: string, message: string) => report({ key: `inputs[${i}]${suffix}`, message, at });
    if (!isRecord(raw)) return bad('', 'An input must be an object');
    const id = own(raw, 'id');
    const type = own(raw, 'type');
    const description = own(raw, 'description');
    const password = own(raw, 'password');
    const dflt = own(raw, 'default');
    if (typeof id !== 'string' || id === '') return bad('.id', '"id" is required and must be a non-empty string');
    if (type !== 'promptString' && type !== 'pickString' && type !== 'command') {
      return bad('.type', `Input "${id}": unsupported type ${JSON.stringify(type)}; expected "promptString", "pickString" or "command"`);
    }
    if (description !== undefined && typeof description !== 'string') {
      return bad('.description', `Input "${id}": "description" must be a string`);
    }
    if (password !== undefined && typeof password !== 'boolean') return bad('.password', `Input "${id}": "password" must be true or false`);
    if (dflt !== undefined && typeof dflt !== 'string') return bad('.default', `Input "${id}": "default" must be a string`);
    if (inputs.some((x) => x.id === id)) return bad('.id', `Input "${id}" is declared more than once; the first declaration is used`);
    const base = { id, description: description ?? '', password: password ?? false, ...(dflt !== undefined && { default: dflt }) };
    if (type === 'pickString') {
      const rawOptions = own(raw, 'options');
      if (!Array.isArray(rawOptions) || rawOptions.length === 0) {
        return bad('.options', `Input "${id}": "options" must be a non-empty array`);
      }
      const options: { label: string; value: string }[] = [];
      for (const [j, o] of rawOptions.entries()) {
        // VS Code takes a string, or `{ label?, value }`.
        if (typeof o === 'string') options.push({ label: o, value: o });
        else if (isRecord(o) && typeof o['value'] === 'string' && (o['label'] === undefined || typeof o['label'] === 'string')) {
          options.push({ label: o['label'] ?? o['value'], value: o['value'] });
        } else return bad(`.options[${j}]`, `Input "${id}": each option must be a string or { "label"?, "value" } with string values`);
      }
      if (dflt !== undefined && !options.some((o) => o.value === dflt)) {
        return bad('.default', `Input "${id}": "default" must be one of the options`);
      }
      inputs.push({ ...base, type, options });
      return;
    }
    if (type === 'command') {
      const command = own(raw, 'command');
      if (typeof command !== 'string' || command === '') {
        return bad('.command', `Input "${id}": "command" is required and must be a command id`);
      }
      const args = own(raw, 'args');
      inputs.push({ ...base, type, command, ...(args !== undefined && { args }) });
      return;
    }
    inputs.push(base);
  });
  return inputs;
}
