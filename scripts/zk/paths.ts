import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const CIRCUIT_NAME = 'compliance_credential';
export const CIRCUIT_SOURCE = join(REPO_ROOT, 'circuits', `${CIRCUIT_NAME}.circom`);
export const BUILD_DIR = join(REPO_ROOT, 'circuits', 'build');
