/**
 * Sampling's own cost (issue 24, Bench): the same request answered by the same language model,
 * once through our sampling path with the server in the user's `sampling.skipReview` (the request check, policy and
 * rate limit, the model listing and choice, the model call, the outcome record and audit line;
 * no prompt), and once by calling `vscode.lm` directly as a minimal client would: pick the model
 * by id, send, read the text. The model is the deterministic test model of
 * test/fixtures/samplingModelExtension, which answers at once, so what is left is the overhead
 * itself; with a real model's seconds the ratio would be closer to 1. Calls alternate
 * (AB BA) after warm-ups.
 */
import * as vscode from 'vscode';
import type { ExtensionUnderTest } from './extension';
import { waitUntil } from './wait';

export type SamplingPath = 'direct' | 'ours';

export interface SamplingBenchResult {
  /** One request → reply, ms, per measured call (warm-ups left out). */
  readonly calls: { path: SamplingPath; ms: number }[];
  readonly warmup: number;
  /** The model both paths used. */
  readonly model: string;
}

// VS Code's first test model: with no model chosen for the server, the only one our path may use.
const MODEL = 'sampling-large';

async function direct(text: string): Promise<string> {
  const [model] = await vscode.lm.selectChatModels({ id: MODEL });
  if (!model) throw new Error(`the model ${MODEL} is not available`);
  const source = new vscode.CancellationTokenSource();
  try {
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User(text)],
      { modelOptions: { maxTokens: 50 } },
      source.token,
    );
    let out = '';
    for await (const part of response.text) out += part;
    return out;
  } finally {
    source.dispose();
  }
}

export async function measureSampling(
  ext: ExtensionUnderTest,
  server: string,
  n: number,
  warmup: number,
  log: (m: string) => void,
): Promise<SamplingBenchResult> {
  await vscode.commands.executeCommand('mcpTest.samplingModel.register');
  await waitUntil(async () => (await vscode.lm.selectChatModels({ id: MODEL })).length === 1, `the test model ${MODEL}`, 30_000);
  // The bench sends far more than 10 a minute: the user's "Allow More", as for the latency servers.
  ext.allowMore(server);
  const paths: Record<SamplingPath, (text: string) => Promise<string>> = {
    direct,
    ours: async (text) => {
      const r = await ext.sample(server, {
        messages: [{ role: 'user', content: { type: 'text', text } }],
        maxTokens: 50,
      });
      if (r.model !== MODEL) throw new Error(`our path chose ${r.model}, not ${MODEL}`);
      return r.text;
    },
  };
  const calls: SamplingBenchResult['calls'] = [];
  for (let i = 0; i < warmup + n; i++) {
    const order: SamplingPath[] = i % 2 === 0 ? ['direct', 'ours'] : ['ours', 'direct'];
    for (const path of order) {
      const text = `sample ${path} ${i}`;
      const t0 = performance.now();
      const reply = await paths[path](text);
      const ms = performance.now() - t0;
      if (reply !== `${MODEL} heard: ${text}`) throw new Error(`${path} answered ${JSON.stringify(reply)}`);
      if (i >= warmup) calls.push({ path, ms });
    }
  }
  const med = (p: SamplingPath): string => {
    const v = calls
      .filter((c) => c.path === p)
      .map((c) => c.ms)
      .sort((a, b) => a - b);
    return (v[Math.floor(v.length / 2)] ?? NaN).toFixed(2);
  };
  log(`[bench] sampling: direct ${med('direct')} ms, ours (allow) ${med('ours')} ms (medians)`);
  return { calls, warmup, model: MODEL };
}
