/**
 * `npm run demo`: see the action work without a cluster. Starts the API server stand-in (test/cluster)
 * with a scripted rollout — a Deployment that becomes ready, one that fails on a bad image, a Job — runs
 * `dist/index.js` against it exactly as the GitHub runner would (building dist/ first when it is missing
 * or stale), then prints the step's log, the job summary it wrote and its outputs.
 * `npm run demo -- failures` shows a crash-looping Deployment and a failed Job instead, with their log tails.
 * The action fails (one target failed): that is the demo working. The demo exits 0 when the action
 * reported as it should, 1 when something is broken.
 */
import { startCluster } from '../test/cluster/index.js';
import { distIsStale, ensureDist } from '../test/e2e/dist.js';
import { deployment, job } from '../test/e2e/objects.js';
import { runAction } from '../test/e2e/runAction.js';

/** `npm run demo -- failures`: a crash-looping Deployment and a failed Job, explained with their logs. */
const failures = process.argv.includes('failures');

const heading = (text: string) => `\n\x1b[1m=== ${text} ===\x1b[0m\n`;

async function demo(): Promise<number> {
  if (distIsStale()) process.stdout.write('Building dist/ from src/ first (npm run package, under a minute)...\n');
  await ensureDist();
  const cluster = await startCluster();
  try {
    const namespace = 'shop';
    if (failures) {
      // Why a rollout failed, with the containers' log tails: a crash loop and a Job out of retries.
      cluster.create(deployment('api', { namespace, replicas: 2, podFailure: 'CrashLoopBackOff' }));
      const migrate = job('migrate', { namespace, readyAfterMs: 300 });
      migrate.metadata.annotations['kubewait.test/job-outcome'] = 'Failed';
      cluster.create(migrate);
    } else {
      cluster.create(deployment('web', { namespace, replicas: 3, readyAfterMs: 800 }));
      cluster.create(deployment('api', { namespace, replicas: 2, image: 'registry.example.com/shop/api:v2', podFailure: 'ImagePullBackOff' }));
      cluster.create(job('migrate', { namespace, readyAfterMs: 1500 }));
    }

    const inputs = {
      kubeconfig: cluster.kubeconfig({ namespace }),
      resources: failures ? 'deployment/api\njob/migrate' : 'deployment/web\ndeployment/api\njob/migrate',
      timeout: failures ? '15s' : '2m',
      // Wait past the Job's failure until the deadline, so the report explains both.
      ...(failures ? { 'fail-fast': 'false' } : {}),
    };
    process.stdout.write(heading('Workflow step'));
    process.stdout.write(
      [
        '- uses: kubewait/kubewait@v1',
        '  with:',
        '    kubeconfig: ${{ secrets.KUBECONFIG }}',
        '    resources: |',
        ...inputs.resources.split('\n').map((line) => `      ${line}`),
        `    timeout: ${inputs.timeout}`,
        '',
      ].join('\n'),
    );

    const run = await runAction(inputs);

    process.stdout.write(heading('Step log (as the runner shows it)'));
    process.stdout.write(`${run.rendered.trimEnd()}\n`);
    if (run.stderr.trim()) process.stdout.write(`${heading('stderr')}${run.stderr}`);
    process.stdout.write(heading('Job summary ($GITHUB_STEP_SUMMARY, markdown)'));
    process.stdout.write(`${run.summary.trimEnd() || '(none written)'}\n`);
    process.stdout.write(heading('Outputs ($GITHUB_OUTPUT)'));
    for (const [name, value] of Object.entries(run.outputs)) {
      process.stdout.write(value.includes('\n') ? `${name}:\n${value.replace(/^/gm, '  ')}\n` : `${name}: ${value}\n`);
    }
    process.stdout.write(heading(`Exit code: ${run.exitCode}`));

    const asExpected = run.exitCode === 1 && run.outputs.result === 'failed' && run.summary !== '';
    process.stdout.write(
      asExpected
        ? failures
          ? 'The step failed, and the report says why: the panic of the crash-looping api and the error of the failed migrate Job.\n'
          : 'The step failed because deployment/api cannot pull its image — exactly what kubewait is for.\n'
        : 'Unexpected: the action did not report the failed rollout as it should (see above).\n',
    );
    return asExpected ? 0 : 1;
  } finally {
    await cluster.close();
  }
}

process.exitCode = await demo();
