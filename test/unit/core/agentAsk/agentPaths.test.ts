// Paths an agent names are confined to the served root: `..`, absolute paths outside and symlinks out
// are refused before anything is read; files, folders and globs inside are planned with the usual rules.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentAskError } from '../../../../src/core/agentAsk/agentAskErrors';
import { planAgentPaths } from '../../../../src/core/agentAsk/agentPaths';
import { AGENT_TOOL_INPUT_SCHEMA, parseAgentToolInput, VSCODE_AGENT_TOOL_DESCRIPTION, VSCODE_AGENT_TOOL_INPUT_SCHEMA } from '../../../../src/core/agentAsk/agentToolSchema';
import { PathNotFoundError } from '../../../../src/core/context/contextErrors';

describe('planAgentPaths', () => {
  let dir: string;
  let root: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-agent-paths-'));
    root = join(dir, 'root');
    mkdirSync(join(root, 'src', 'deep'), { recursive: true });
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(root, 'a.txt'), 'a\n');
    writeFileSync(join(root, 'src', 'x.ts'), 'x\n');
    writeFileSync(join(root, 'src', 'deep', 'y.ts'), 'y\n');
    writeFileSync(join(root, 'src', 'deep', 'z.md'), 'z\n');
    writeFileSync(join(dir, 'outside', 'secret.txt'), 's\n');
    symlinkSync(join(dir, 'outside'), join(root, 'link-out'));
    symlinkSync(join(dir, 'outside', 'secret.txt'), join(root, 'secret-link.txt'));
    symlinkSync(join(root, 'src'), join(root, 'link-in'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const refused = async (paths: unknown[], reason: string, message: RegExp): Promise<void> => {
    await assert.rejects(planAgentPaths(paths, { root }), (error: unknown) => {
      assert.ok(error instanceof AgentAskError, String(error));
      assert.equal(error.reason, reason);
      assert.match(error.message, message);
      return true;
    });
  };

  it('plans the whole root when no path is given, without following the links out', async () => {
    const plan = await planAgentPaths([], { root });
    const files = plan.files.map((f) => f.path);
    assert.ok(files.includes('a.txt') && files.includes('src/deep/y.ts'), files.join(','));
    assert.ok(!files.some((f) => f.includes('secret')), files.join(','));
  });

  it('plans a file, a folder and globs (with ** and braces) relative to the root', async () => {
    assert.deepEqual((await planAgentPaths(['a.txt'], { root })).files.map((f) => f.path), ['a.txt']);
    assert.deepEqual((await planAgentPaths(['./src/'], { root })).files.map((f) => f.path), ['src/deep/y.ts', 'src/deep/z.md', 'src/x.ts']);
    assert.deepEqual((await planAgentPaths(['src/**/*.ts'], { root })).files.map((f) => f.path), ['src/deep/y.ts', 'src/x.ts']);
    assert.deepEqual((await planAgentPaths(['src/*.ts'], { root })).files.map((f) => f.path), ['src/x.ts']);
    assert.deepEqual((await planAgentPaths(['**/*.{md,txt}'], { root })).files.map((f) => f.path), ['a.txt', 'src/deep/z.md']);
    assert.deepEqual((await planAgentPaths([join(root, 'a.txt')], { root })).files.map((f) => f.path), ['a.txt']);
  });

  it('reads a link that stays inside the root at its own path', async () => {
    assert.deepEqual((await planAgentPaths(['link-in/x.ts'], { root })).files.map((f) => f.path), ['src/x.ts']);
  });

  it('refuses "..", absolute paths outside and links out, before reading anything', async () => {
    await refused(['../outside/secret.txt'], 'outside-root', /climbs out with "\.\."/);
    await refused(['src/../a.txt'], 'outside-root', /climbs out/);
    await refused(['src\\..\\..\\outside'], 'outside-root', /climbs out/);
    await refused([join(dir, 'outside', 'secret.txt')], 'outside-root', /outside the folder RLM serves/);
    await refused(['/nonexistent/elsewhere'], 'outside-root', /outside the folder RLM serves/);
    await refused(['link-out'], 'outside-root', /outside the folder RLM serves/);
    await refused(['link-out/secret.txt'], 'outside-root', /outside/);
    await refused(['secret-link.txt'], 'outside-root', /outside/);
    await refused(['link-out/*.txt'], 'outside-root', /outside/);
    await refused([join(dir, '*')], 'outside-root', /outside/);
  });

  it('says what is wrong with a bad path', async () => {
    await refused([''], 'bad-input', /empty/);
    await refused([42], 'bad-input', /must be a string/);
    await refused(['a\0b'], 'bad-input', /NUL/);
    await refused(['src/*.py'], 'no-match', /matches no readable text file/);
    await refused(Array.from({ length: 201 }, () => 'a.txt'), 'bad-input', /at most 200/);
    await assert.rejects(planAgentPaths(['missing.txt'], { root }), PathNotFoundError);
  });
});

describe('the rlm_ask input', () => {
  it('needs a question and takes paths as a list', () => {
    assert.deepEqual(parseAgentToolInput({ question: ' Why? ' }), { question: 'Why?', paths: [], selection: false });
    assert.deepEqual(parseAgentToolInput({ question: 'Why?', selection: true }, { hasEditor: true }), { question: 'Why?', paths: [], selection: true });
    assert.throws(() => parseAgentToolInput({ question: 'q', selection: true }), /no editor, so it cannot see a selection: pass the file's path/);
    assert.throws(() => parseAgentToolInput({ question: 'q', selection: 'yes' }, { hasEditor: true }), /"selection" must be true/);
    assert.throws(() => parseAgentToolInput({ question: 'q', selection: true, paths: ['src'] }, { hasEditor: true }), /either "selection": true or "paths", not both/);
    assert.throws(() => parseAgentToolInput({ paths: [] }), /Give "question"/);
    assert.throws(() => parseAgentToolInput({ question: 'q', paths: 'src' }), /must be a list/);
    assert.throws(() => parseAgentToolInput({ question: 'x'.repeat(9000) }), /pass the material as "paths"/);
  });

  it('is declared in package.json as the core declares it for VS Code: the MCP schema and the selection', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8')) as { contributes: { languageModelTools: Array<{ name: string; inputSchema: unknown; modelDescription: string; toolReferenceName: string; canBeReferencedInPrompt: boolean }> } };
    const tool = manifest.contributes.languageModelTools.find((t) => t.name === 'rlm_ask');
    assert.ok(tool);
    assert.deepEqual(tool.inputSchema, JSON.parse(JSON.stringify(VSCODE_AGENT_TOOL_INPUT_SCHEMA)));
    assert.equal(tool.modelDescription, VSCODE_AGENT_TOOL_DESCRIPTION);
    const { selection, ...shared } = VSCODE_AGENT_TOOL_INPUT_SCHEMA.properties;
    assert.deepEqual(shared, AGENT_TOOL_INPUT_SCHEMA.properties, 'the same question and paths as rlm mcp');
    assert.equal(selection.type, 'boolean');
    assert.ok(!('selection' in AGENT_TOOL_INPUT_SCHEMA.properties), 'rlm mcp has no editor, so no selection');
    assert.equal(tool.toolReferenceName, 'rlm');
    assert.equal(tool.canBeReferencedInPrompt, true);
  });
});
