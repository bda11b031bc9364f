/**
 * The reusable workflow and the example workflows are valid for GitHub (checked with GitHub's own
 * parser, @actions/workflow-parser), and the reusable workflow mirrors action.yml exactly.
 */
import { describe, expect, it } from '@jest/globals';
import { NoOperationTraceWriter, convertWorkflowTemplate, parseWorkflow } from '@actions/workflow-parser';
import { parseAction } from '@actions/workflow-parser/actions/index';
import type { FileProvider } from '@actions/workflow-parser/workflows/file-provider';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const REUSABLE = '.github/workflows/kubewait.yml';
const workflowFiles = [
  ...readdirSync('.github/workflows').map((f) => join('.github/workflows', f)),
  ...readdirSync('examples/workflows').map((f) => join('examples/workflows', f)),
].filter((f) => /\.ya?ml$/.test(f));

/** Serves the reusable workflow for `kubewait/kubewait/...@v1`, so callers are checked against it. */
const localReusableWorkflow: FileProvider = {
  async getFileContent(ref) {
    if ('owner' in ref && `${ref.owner}/${ref.repository}/${ref.path}` === `kubewait/kubewait/${REUSABLE}`) {
      return { name: REUSABLE, content: readFileSync(REUSABLE, 'utf8') };
    }
    throw new Error(`unknown reusable workflow ${JSON.stringify(ref)}`);
  },
};

/** Every error GitHub's parser reports for a workflow, including calls into the reusable workflow. */
async function workflowErrors(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  if (!parsed.value) return parsed.context.errors.getErrors().map((e) => e.message);
  const template = await convertWorkflowTemplate(parsed.context, parsed.value, localReusableWorkflow, { fetchReusableWorkflowDepth: 1 });
  return (template.errors ?? []).map((e) => e.Message);
}

interface ActionYml {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, unknown>;
}
interface ReusableYml {
  on: {
    workflow_call: {
      inputs: Record<string, { type: string; default?: string | boolean }>;
      secrets: Record<string, unknown>;
      outputs: Record<string, { value: string }>;
    };
  };
  jobs: Record<string, { outputs: Record<string, string>; steps: Array<{ id?: string; uses?: string; with?: Record<string, string> }> }>;
}

const action = parse(readFileSync('action.yml', 'utf8')) as ActionYml;
const reusable = parse(readFileSync(REUSABLE, 'utf8')) as ReusableYml;

describe('workflow files', () => {
  it('finds the reusable workflow and the examples', () => {
    expect(workflowFiles).toContain(REUSABLE);
    expect(workflowFiles.filter((f) => f.startsWith('examples/')).length).toBeGreaterThanOrEqual(3);
  });

  it.each(workflowFiles)('%s parses with no errors', async (file) => {
    expect(await workflowErrors(file, readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('the checker does report mistakes (an unknown key, an input the reusable workflow lacks)', async () => {
    const broken = `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n`;
    expect((await workflowErrors('broken.yml', broken)).length).toBeGreaterThan(0);
    const badCall = `on: push\njobs:\n  wait:\n    uses: kubewait/kubewait/${REUSABLE}@v1\n    with:\n      no-such-input: x\n`;
    expect(await workflowErrors('bad-call.yml', badCall)).toEqual([expect.stringContaining('no-such-input is not defined in the referenced workflow')]);
  });

  it('action.yml is a valid action manifest', () => {
    const parsed = parseAction({ name: 'action.yml', content: readFileSync('action.yml', 'utf8') }, new NoOperationTraceWriter());
    expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
  });
});

describe('the reusable workflow mirrors action.yml', () => {
  const call = reusable.on.workflow_call;
  // Secrets, not inputs: the kubeconfig and the token. report-job-id: the called job's own id, set by the step.
  const SECRETS = ['kubeconfig', 'github-token'];
  const actionInputs = Object.keys(action.inputs).filter((name) => !SECRETS.includes(name) && name !== 'report-job-id');

  it('has every action input except the secrets and report-job-id, plus runs-on, with the same defaults', () => {
    expect(Object.keys(call.inputs).sort()).toEqual([...actionInputs, 'runs-on'].sort());
    // report-matrix: the caller's matrix is not visible in the called workflow, so the caller passes it.
    for (const name of actionInputs.filter((n) => n !== 'report-matrix')) {
      expect({ name, default: String(call.inputs[name]!.default ?? '') }).toEqual({ name, default: String(action.inputs[name]!.default ?? '') });
    }
  });

  it('takes the kubeconfig and the token as secrets', () => {
    expect(Object.keys(call.secrets)).toEqual(SECRETS);
  });

  it('passes every input to the action step', () => {
    const step = Object.values(reusable.jobs)[0]!.steps.find((s) => s.uses?.startsWith('kubewait/kubewait@'));
    expect(step?.with).toEqual({
      kubeconfig: '${{ secrets.kubeconfig }}',
      'github-token': '${{ secrets.github-token || github.token }}',
      'report-job-id': '${{ job.check_run_id }}',
      ...Object.fromEntries(actionInputs.map((name) => [name, `\${{ inputs.${name} }}`])),
    });
  });

  it('maps every action output from the step through the job', () => {
    const [jobName, job] = Object.entries(reusable.jobs)[0]!;
    const stepId = job.steps.find((s) => s.uses?.startsWith('kubewait/kubewait@'))!.id;
    expect(Object.keys(call.outputs)).toEqual(Object.keys(action.outputs));
    for (const name of Object.keys(action.outputs)) {
      expect(call.outputs[name]!.value).toBe(`\${{ jobs.${jobName}.outputs.${name} }}`);
      expect(job.outputs[name]).toBe(`\${{ steps.${stepId}.outputs.${name} }}`);
    }
  });
});
