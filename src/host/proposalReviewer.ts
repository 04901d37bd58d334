import type { AssistTarget } from './editorTarget';

/** A proposed replacement of a target's range. */
export interface Proposal {
  target: AssistTarget;
  /** The new text of `target.range`, line ends and indentation already fitted. */
  text: string;
  /** The command's title, for the diff's title and messages ("Document Selection"); "Chat" for the chat's edit tool. */
  commandTitle: string;
  /**
   * What to do for a new proposal once this one no longer fits, in a sentence (absent: run the command again). The
   * chat's proposals have no command to run again.
   */
  again?: string;
  /** What fitting the request to the model's context trimmed, in a sentence or a few (absent: nothing was). */
  notice?: string;
}

/** How a review ended. */
export type ReviewOutcome = 'applied' | 'discarded' | 'unchanged';

/**
 * The reviewed diff of a proposal, as the features that propose changes use it (code assistance owns it; the chat's
 * edit tool opens its proposals in it): nothing is written until the user applies the proposal.
 */
export interface ProposalReviewer {
  /** Opens the diff; resolves once shown, with the review's id (none when nothing changes) and its outcome. */
  open(proposal: Proposal): Promise<{ id?: string; outcome: Promise<ReviewOutcome> }>;
  /** Shows a review still waiting for a decision again; false when it was decided or is unknown. */
  reopen(id: string): Promise<boolean>;
}
