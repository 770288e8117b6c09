import { Children, isValidElement, type ReactElement, type ReactNode } from 'react';

export interface SlideProps {
  title: string;
  children?: ReactNode;
}

/** Only a marker: <SlideDeck> reads its props. */
export function Slide({ children }: SlideProps) {
  return <>{children}</>;
}

/**
 * A deck that reads as a normal page (every slide in order). The client adds a
 * presentation mode: one slide at a time, arrow keys / Page Up / Page Down, Escape to leave.
 */
export function SlideDeck({ title, children }: { title: string; children?: ReactNode }) {
  const slides = Children.toArray(children).filter((c): c is ReactElement<SlideProps> => isValidElement(c) && typeof (c.props as SlideProps).title === 'string');
  return (
    <section className="slide-deck" aria-roledescription="carousel" aria-label={title} data-slide-deck="">
      <div className="slide-deck__toolbar">
        <span className="slide-deck__title">{title}</span>
        <span className="slide-deck__count" aria-live="polite">
          {slides.length} slides
        </span>
        <button type="button" className="button button--secondary slide-deck__present" data-slide-present="">
          Present
        </button>
      </div>
      <ol className="slide-deck__slides">
        {slides.map((slide, index) => (
          <li key={index} className="slide" aria-roledescription="slide" aria-label={`${index + 1} of ${slides.length}: ${slide.props.title}`} data-slide="">
            <p className="slide__title" role="heading" aria-level={3}>
              {slide.props.title}
            </p>
            <div className="slide__body">{slide.props.children}</div>
            <p className="slide__number" aria-hidden="true">
              {index + 1} / {slides.length}
            </p>
          </li>
        ))}
      </ol>
      <div className="slide-deck__controls" hidden>
        <button type="button" className="button button--secondary" data-slide-prev="">
          ← Previous slide
        </button>
        <button type="button" className="button button--secondary" data-slide-next="">
          Next slide →
        </button>
        <button type="button" className="button button--secondary" data-slide-exit="">
          Exit presentation
        </button>
      </div>
    </section>
  );
}
