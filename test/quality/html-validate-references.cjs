// html-validate's own "no-missing-references" rule, with the ids looked up in a set.
//
// The library's rule looks each reference up with a selector over the whole document, so
// its cost is references × elements: on an API reference page (640 KB, thousands of
// aria-labelledby and aria-controls from the pre-rendered tabs) it took 5 of the 5.5
// seconds html-validate spent on the page, and was the longest single check of the test
// run. This one reads every id once and checks the same attributes with the same
// messages. html-validate.test.ts switches the library's rule off and this one on, and
// proves it still reports a missing reference.
'use strict';
const { DOMTokenList, DynamicValue, Rule, definePlugin } = require('html-validate');

/** The attributes "no-missing-references" checks (html-validate 10), and whether each holds a list of ids. */
const REFERENCES = [
  { selector: 'label[for]', key: 'for', isList: false },
  { selector: 'input[list]', key: 'list', isList: false },
  ...[
    ['aria-activedescendant', false],
    ['aria-controls', true],
    ['aria-describedby', true],
    ['aria-details', false],
    ['aria-errormessage', false],
    ['aria-flowto', true],
    ['aria-labelledby', true],
    ['aria-owns', true],
  ].map(([key, isList]) => ({ selector: `[${key}]`, key, isList })),
];

class MissingReferences extends Rule {
  documentation(context) {
    return {
      description: `The element ID "${context.value}" referenced by the ${context.key} attribute must point to an existing element.`,
      url: 'https://html-validate.org/rules/no-missing-references.html',
    };
  }

  setup() {
    this.on('dom:ready', ({ document }) => {
      const ids = new Set(document.querySelectorAll('[id]').map((node) => node.id));
      for (const { selector, key, isList } of REFERENCES) {
        for (const node of document.querySelectorAll(selector)) {
          const attr = node.getAttribute(key);
          const value = attr?.value;
          if (!attr || value instanceof DynamicValue || value === null || value === '') continue;
          const entries = isList ? [...new DOMTokenList(value, attr.valueLocation).iterator()] : [{ item: value, location: attr.valueLocation }];
          for (const { item, location } of entries) {
            if (!ids.has(item)) this.report(node, `Element references missing id "${item}"`, location, { key: attr.key, value: item });
          }
        }
      }
    });
  }
}

module.exports = definePlugin({ name: 'docsgen-test', rules: { 'docsgen-test/missing-references': MissingReferences } });
