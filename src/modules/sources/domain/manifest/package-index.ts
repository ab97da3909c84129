import type { ManifestFileName, ManifestProblem } from './plugin-manifest.js';

/** A problem when a requested package index does not name a package of the manifest. */
export function checkPackageIndex(file: ManifestFileName, index: number, packageCount: number): ManifestProblem | undefined {
  if (Number.isInteger(index) && index >= 0 && index < packageCount) return undefined;
  const declared = packageCount === 0 ? `${file} declares no packages` : `${file} declares ${packageCount} package${packageCount === 1 ? '' : 's'}`;
  const range = packageCount === 0 ? '' : ` (use 0 to ${packageCount - 1})`;
  return { path: 'packageIndex', message: `${String(index)} is out of range: ${declared}${range}` };
}
