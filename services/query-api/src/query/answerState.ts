import type { ReadView } from "@vu/store";

/** The state of the store an answer is exact for: its view, and the organization's write stamp there. */
export interface AnswerState {
  generation: number;
  epoch: string;
  stamp: string | null;
}

/**
 * What an answer holds beside its parameters: the state it was read in and what its range was
 * cut into (planner/answerFrame.ts). Equal validators of the same question mean the same answer,
 * so an entity tag is made from them (docs/contract.md §9), never from the answer itself.
 */
export interface AnswerValidator {
  state: AnswerState;
  frame: string;
}

export function answerState(view: ReadView, stamp: string | null): AnswerState {
  return { generation: view.generation, epoch: view.epoch, stamp };
}

/** A range's frame and, with `compare`, the previous range's. */
export function framesOf(current: string, previous?: string): string {
  return previous === undefined ? current : `${current}|${previous}`;
}
