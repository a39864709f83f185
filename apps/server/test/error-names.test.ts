// Error codes are referred to by name (`ErrorCode.notFound`), never by their bare number, in the
// server's, the web app's (its browser tests too) and the contracts' sources and tests. Checked forms: the code argument
// of `fail(…)`, `new BusinessError(…)`, `new DeviceError(…)`, `new ApiError(…)`, `errorText(…)`
// and `replyError(…)`; a comparison `code === N` / `code !== N` (either side); a `tolerate` list;
// a test's `….code).toBe(N)` on an envelope; a `code: N` property. Numbers inside quotes (a
// message) do not count, nor does a `code` that is not an error code (an exit code), listed with
// its reason.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const scanned = ['apps/server/src', 'apps/server/test', 'apps/web/src', 'apps/web/e2e', 'packages/contracts/src'];
const skipped = new Set(['node_modules', 'dist', 'data']);

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipped.has(entry.name)) walk(full, out);
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/**
 * The text of a line with the text of its string literals blanked (a number in a message is not a
 * code); a template literal's `${…}` expressions stay (they are code).
 */
function withoutStrings(line: string): string {
  let out = '';
  let quote: string | null = null;
  let depth = 0; // inside a template's `${…}`: the braces open
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === null || depth > 0) {
      if (depth > 0 && ch === '{') depth++;
      else if (depth > 0 && ch === '}' && --depth === 0) {
        out += ch;
        continue;
      } else if (depth === 0 && (ch === "'" || ch === '"' || ch === '`')) quote = ch;
      out += ch;
    } else if (ch === '\\') {
      out += '  ';
      i++;
    } else if (ch === quote) {
      quote = null;
      out += ch;
    } else if (quote === '`' && ch === '$' && line[i + 1] === '{') {
      out += '${';
      depth = 1;
      i++;
    } else out += ' ';
  }
  return out;
}

/** The text between the `(` at `open` and its matching `)` on the same line (to the line's end when unmatched). */
function argumentsAt(line: string, open: number): string {
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    if (line[i] === '(' || line[i] === '[') depth++;
    else if ((line[i] === ')' || line[i] === ']') && --depth === 0) return line.slice(open + 1, i);
  }
  return line.slice(open + 1);
}

/** A number that is not part of a name, a property or an index (`rows[0]`). */
const bareNumber = /(?<![\w.$]|[\w\])]\[)\d+(?![\w.])/;
/** Lines that compare a `code` that is not an error code, by file: the text that marks them and what that code is. */
const notErrorCodes: Record<string, { text: string; why: string }> = {
  'apps/server/src/bootstrap/simulator.ts': { text: 'code !== 130', why: 'the simulator process exit code' },
  'apps/server/src/telemetry/broker/embedded.test.ts': { text: 'code: ', why: "an MQTT CONNACK's return code" },
};
/** Calls whose arguments are codes, and lists that are. */
const codeCalls = /\b(?:fail|new BusinessError|new DeviceError|new ApiError|errorText|replyError)\(|\btolerate\??\s*[:=]\s*\[/g;
const comparisons = [/\bcode\s*[!=]==?\s*\d+(?![\w.])/, /(?<![\w.$])\d+\s*[!=]==?\s*[\w.?!]*\bcode\b/];
/** A test's expectation on an envelope's code: `res.body.code).toBe(4)`, `(await add(…)).code, why).not.toBe(0)`. */
const envelopeExpectation = /\.code\b(?:\)|,[^;]*?\))\.(?:not\.)?toBe\(\d+\)/;
/** An envelope or an error written or expected as an object: `{ code: 4, msg }`, `{ error_code: 1 }`, `{ __code: 4 }`. */
const codeProperty = /(?<![A-Za-z0-9$])_*code: \d+(?![\w.])/;

/** The arguments of a call split at its own commas (not those of a call or a list inside it). */
function topLevelArguments(args: string): string[] {
  const out = [''];
  let depth = 0;
  for (const ch of args) {
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) out.push('');
    else out[out.length - 1] += ch;
  }
  return out;
}

/** Every line of `text` that writes an error code by its number, as `line: text`. */
export function bareCodes(text: string, file = ''): string[] {
  const exempt = notErrorCodes[file];
  const found: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = withoutStrings(raw);
    if (/^\s*(\/\/|\*|\/\*)/.test(line) || (exempt && raw.includes(exempt.text))) return;
    let bare = comparisons.some((re) => re.test(line)) || envelopeExpectation.test(line) || codeProperty.test(line);
    for (const m of line.matchAll(codeCalls)) {
      const open = m.index + m[0].length - 1;
      const args = topLevelArguments(argumentsAt(line, open));
      // The code is a call's first argument (its detail may hold numbers), replyError's fourth
      // (after the HTTP status); every item of a list.
      const codes = m[0].startsWith('replyError') ? args.slice(3, 4) : m[0].endsWith('[') ? args : args.slice(0, 1);
      if (codes.some((arg) => bareNumber.test(arg))) bare = true;
    }
    if (bare) found.push(`${i + 1}: ${raw.trim()}`);
  });
  return found;
}

describe('error codes by name', () => {
  it('finds a bare code in each checked form, and leaves names, messages and HTTP statuses alone', () => {
    const sample = [
      'if (!row) fail(404);',
      'fail(taken ? 106 : ErrorCode.accountExists);',
      "fail(ErrorCode.validation, 'at most 32 bytes');",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal's source, as a line of a file
      'fail(ErrorCode.validation, `body.value must be at most ${max / 1024} KB`);',
      'throw new DeviceError(1001, `offline for 10 s`);',
      "const text = errorText(4, 'en');",
      'return replyError(req, reply, 404, ErrorCode.notFound);',
      'return replyError(req, reply, 403, 2);',
      "return replyError(req, reply.header('content-range', `bytes */` + size), 416, ErrorCode.validation);",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal's source, as a line of a file
      'return `${errorText(4, lan)}: at most 10 items`;',
      'const tolerate = [4];',
      'if (accepted.length === 0) fail(refused[0]!.code);',
      'if (err.code === 700) return;',
      'if (ErrorCode.notFound !== err.code) return;',
      'if (0 !== res.body.code) throw res;',
      "if (err.code === 'ECONNRESET') return;",
      'await call(api.x, { body, tolerate: [4, ErrorCode.notFound] });',
      'expect(res.body.code).toBe(203);',
      'expect(res.statusCode).toBe(404);',
      "expect((await add(a, { ids: [1, 2] })).code, 'call').not.toBe(0);",
      'expect(server.child.exitCode).toBe(0);',
      "expect(res.body).toMatchObject({ code: 4, msg: 'code: 4' });",
      "expect(res.body).toMatchObject({ code: ErrorCode.validation, msg: 'code: 4' });",
      "throw new ApiError(401, 'x');",
      "expect(row).toEqual({ state: 'failed', error_code: 1, exitCode: 0 });",
      '// fail(404) in a comment',
    ].join('\n');
    expect(bareCodes(sample)).toEqual([
      '1: if (!row) fail(404);',
      '2: fail(taken ? 106 : ErrorCode.accountExists);',
      '5: throw new DeviceError(1001, `offline for 10 s`);',
      "6: const text = errorText(4, 'en');",
      '8: return replyError(req, reply, 403, 2);',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal's source, as a line of a file
      '10: return `${errorText(4, lan)}: at most 10 items`;',
      '11: const tolerate = [4];',
      '13: if (err.code === 700) return;',
      '15: if (0 !== res.body.code) throw res;',
      '17: await call(api.x, { body, tolerate: [4, ErrorCode.notFound] });',
      '18: expect(res.body.code).toBe(203);',
      "20: expect((await add(a, { ids: [1, 2] })).code, 'call').not.toBe(0);",
      "22: expect(res.body).toMatchObject({ code: 4, msg: 'code: 4' });",
      "24: throw new ApiError(401, 'x');",
      "25: expect(row).toEqual({ state: 'failed', error_code: 1, exitCode: 0 });",
    ]);
  });

  it('no source or test of the server, the web app or the contracts writes an error code by its number', () => {
    const bare = scanned.flatMap((dir) =>
      walk(path.join(root, dir)).flatMap((file) =>
        file === import.meta.filename
          ? []
          : bareCodes(fs.readFileSync(file, 'utf8'), path.relative(root, file)).map(
              (hit) => `${path.relative(root, file)}:${hit}`,
            ),
      ),
    );
    expect(bare, 'use ErrorCode.<name> from @sunfleet/contracts').toEqual([]);
  });
});
