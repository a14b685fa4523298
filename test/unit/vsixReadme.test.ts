import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { imageReferences } from '../../scripts/lib/vsixReadme.mjs';

describe('the packaged README check: which images a README shows', () => {
  it('finds inline images, reference images and <img>, not links or code', () => {
    const md = [
      '![One](docs/images/a.png) and ![](docs/images/b.gif "title")',
      'a [link](docs/images/not-an-image.png) is not a picture',
      '![ref][pic]',
      '[pic]: docs/images/c.png',
      '<img src="https://example.com/d.png" width="10">',
      '```',
      '![in code](docs/images/e.png)',
      '```',
    ].join('\n');
    assert.deepEqual(imageReferences(md), ['docs/images/a.png', 'docs/images/b.gif', 'docs/images/c.png', 'https://example.com/d.png']);
  });
});
