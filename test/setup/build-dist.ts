import { ensureDistBuilt } from '../helpers/built-app-process';

/**
 * Jest globalSetup of the projects whose specs run dist/ (the process specs, the going-live CLI
 * specs, the replicas): builds dist/ once per run, before any worker starts, under the build lock.
 * The variable, inherited by the workers, tells `ensureDistBuilt()` in those specs that dist/ is
 * fresh for this run, so no spec rebuilds it while another worker's process is booting from it.
 */
export default function buildDist(): void {
  ensureDistBuilt();
  process.env.TEST_DIST_BUILT = '1';
}
