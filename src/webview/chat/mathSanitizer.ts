import type { DOMPurify } from 'dompurify';
import { MATHML_ATTRIBUTES, MATHML_ELEMENTS } from './render/mathMarkup';

const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';

/** MathML elements DOMPurify allows by default that Temml never emits: the page allows none of them. */
const NOT_EMITTED = ['merror', 'mfenced', 'mglyph', 'mlabeledtr', 'ms', 'maction', 'annotation-xml'];

const ATTRIBUTES = new Set(MATHML_ATTRIBUTES);

/**
 * The sanitiser settings that let exactly the MathML Temml emits through (math.ts): its elements (`semantics`,
 * `annotation`, `none`, `mprescripts` are off by default in DOMPurify) and, on MathML elements, only its attributes
 * (a hook on `purifier` drops any other, `href`, `style` and `mathcolor` among them). Merged into the page's own
 * settings by safeFragment.
 */
export function allowMathml(purifier: DOMPurify): { ADD_TAGS: string[]; ADD_ATTR: string[]; FORBID_TAGS: string[] } {
  purifier.addHook('uponSanitizeAttribute', (node, data) => {
    if (node.namespaceURI === MATHML_NS && !ATTRIBUTES.has(data.attrName)) {
      data.keepAttr = false;
    }
  });
  return {
    ADD_TAGS: MATHML_ELEMENTS.filter((tag) => ['semantics', 'annotation', 'none', 'mprescripts'].includes(tag)),
    ADD_ATTR: [...MATHML_ATTRIBUTES],
    FORBID_TAGS: NOT_EMITTED,
  };
}
