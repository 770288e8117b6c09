/**
 * What a cache entry is valid for: a hash of the docsgen sources that made it and of the
 * installed versions of the packages they call. An entry under another salt is ignored,
 * so a new docsgen or a reinstall never serves what older code made.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './paths.ts';

/** `files`: paths inside docsgen's folder, hashed in the order given; `packages`: docsgen's dependencies, by installed version; `salts`: other salts this one covers. */
export function cacheSalt(parts: { files?: readonly string[]; packages?: readonly string[]; salts?: readonly string[] }): string {
  const hash = createHash('sha1');
  for (const salt of parts.salts ?? []) hash.update(salt).update('\0');
  for (const file of parts.files ?? []) hash.update(readFileSync(path.join(PACKAGE_ROOT, file))).update('\0');
  for (const pkg of parts.packages ?? []) {
    // Read from the folder, not resolved: some packages' "exports" do not list their package.json.
    const { version } = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version?: string };
    hash.update(`${pkg}@${version ?? ''}\0`);
  }
  return hash.digest('hex');
}
