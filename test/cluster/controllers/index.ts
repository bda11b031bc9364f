/** Simulated kube-controller-manager, scheduler and kubelet. */
import type { Api } from '../api.js';

export interface ControllerOptions {
  speed: number;
  nodes: number;
}

export function runControllers(api: Api, opts: ControllerOptions): () => void {
  void api;
  void opts;
  return () => {};
}
