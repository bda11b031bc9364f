/**
 * The release this build is: `version` of package.json, inlined by the bundler. One place, read by the
 * command's `--version` and `--help` and by the job summary's footer, so a report says which kubewait wrote
 * it. CHANGELOG.md says what each version changed; docs/releasing.md how one is cut.
 */
import packageJson from '../package.json' with { type: 'json' };

export const VERSION: string = packageJson.version;
